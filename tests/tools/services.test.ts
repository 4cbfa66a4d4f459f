/**
 * The port names tcpdump prints without -n come from /etc/services (Debian netbase 6.4); the
 * lab's table (src/engine/hosts/output/services.ts) must read every port as tcpdump would read
 * this machine's file: tcp and udp entries, the first name a port gets.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { portName } from '../../src/engine/hosts/output/services';

const FILE = '/etc/services';
const present = existsSync(FILE);
if (!present) console.log('skipping the /etc/services comparison: no /etc/services here');

describe.skipIf(!present)('/etc/services', () => {
  it('names every tcp and udp port as the file does', () => {
    const first = { tcp: new Map<number, string>(), udp: new Map<number, string>() };
    for (const raw of readFileSync(FILE, 'utf8').split('\n')) {
      const [name, spec] = (raw.split('#')[0] ?? '').trim().split(/\s+/);
      const [port, proto] = (spec ?? '').split('/');
      if (name === undefined || (proto !== 'tcp' && proto !== 'udp')) continue;
      if (!first[proto].has(Number(port))) first[proto].set(Number(port), name);
    }
    expect(first.tcp.get(80)).toBe('http');
    for (const proto of ['tcp', 'udp'] as const)
      for (let p = 0; p < 65536; p++) expect(portName(proto, p)).toBe(first[proto].get(p) ?? String(p)); // prettier-ignore
  });
});
