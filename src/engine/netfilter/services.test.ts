/**
 * getservbyport as Debian bookworm's /etc/services (netbase 6.4) answers it. Expected names: that
 * file's lines `gds-db 3050/tcp`, `ptp-event 319/udp`, `sgi-cmsd 17001/udp`, `http-alt 8080/tcp`
 * and `ftp 21/tcp` / `fsp 21/udp` (the first entry of a port wins).
 */
import { describe, expect, it } from 'vitest';
import { serviceName, servicePort } from './services';

describe('serviceName', () => {
  it('names ports as /etc/services does, hyphenated names whole', () => {
    expect(serviceName(3050, 'tcp')).toBe('gds-db');
    expect(serviceName(319, 'udp')).toBe('ptp-event');
    expect(serviceName(17001, 'udp')).toBe('sgi-cmsd');
    expect(serviceName(8080, 'tcp')).toBe('http-alt');
    expect(serviceName(21, 'tcp')).toBe('ftp');
    expect(serviceName(21, 'udp')).toBe('fsp');
    expect(serviceName(8080, 'udp')).toBeUndefined();
    expect(servicePort('gds-db', 'tcp')).toBe(3050);
  });
});
