/**
 * The capture filters tcpdump reads in the lab, on packets built by hand. Expected matches follow
 * pcap-filter(7) (libpcap 1.10); the error texts are tcpdump 4.99's, compared with the real
 * tcpdump in tests/kernel/tcpdump-filter.test.ts, and whole captures in experiment 09.
 */
import { describe, expect, it } from 'vitest';
import type { HostPacket } from '../types';
import { parseCaptureFilter } from './pcap-filter';
import { portName, portNumber } from './services';

const tcp: HostPacket = { src: '10.244.0.5', dst: '10.244.1.2', proto: 'tcp', sport: 41000, dport: 8080, length: 60, mark: 0 }; // prettier-ignore
const dns: HostPacket = { src: '10.244.0.5', dst: '10.96.0.10', proto: 'udp', sport: 41001, dport: 53, length: 70, mark: 0 }; // prettier-ignore
const echo: HostPacket = { src: '10.244.0.5', dst: '10.96.1.10', proto: 'icmp', icmp: { type: 8, code: 0, id: 7 }, length: 84, mark: 0 }; // prettier-ignore

function matches(filter: string): string[] {
  const f = parseCaptureFilter(filter.split(' '));
  if (typeof f !== 'function') throw new Error(f.error);
  return Object.entries({ tcp, dns, echo })
    .filter(([, p]) => f(p))
    .map(([k]) => k);
}

describe('pcap filters', () => {
  it.each([
    ['', ['tcp', 'dns', 'echo']],
    ['tcp', ['tcp']],
    ['icmp or udp', ['dns', 'echo']],
    ['not icmp', ['tcp', 'dns']],
    ['! ( tcp || udp )', ['echo']],
    ['port 53', ['dns']],
    ['port domain', ['dns']],
    ['udp dst port 53', ['dns']],
    ['tcp port 53', []],
    ['dst port 8080 or 53', ['tcp', 'dns']],
    ['portrange 8000-9000', ['tcp']],
    ['host 10.96.0.10', ['dns']],
    ['src host 10.244.0.5 and not port 53', ['tcp', 'echo']],
    ['dst 10.244.1.2 or 10.96.1.10', ['tcp', 'echo']],
    ['net 10.96.0.0/12', ['dns', 'echo']],
    ['dst net 10.244.0.0/16', ['tcp']],
    ['src or dst host 10.244.1.2', ['tcp']],
    ['10.96.1.10', ['echo']],
    ['arp', []],
    ['ip and tcp port http-alt', ['tcp']],
  ])('%s', (filter, expected) => {
    expect(matches(filter)).toEqual(expected);
  });

  it.each([
    ['foo', "can't parse filter expression: syntax error"],
    ['host foo', "unknown host 'foo'"],
    ['port', "can't parse filter expression: syntax error"],
    ['port abc', "unknown port 'abc'"],
    ['tcp and', "can't parse filter expression: syntax error"],
    ['host 300.1.1.1', "invalid IPv4 address '300.1.1.1'"],
    ['net 10.0.0.1/8', 'non-network bits set in "10.0.0.1/8"'],
    ['( tcp', "can't parse filter expression: syntax error"],
    ['icmp port 80', "illegal qualifier of 'port'"],
  ])('%s: %s', (filter, error) => {
    expect(parseCaptureFilter(filter.split(' '))).toEqual({ error });
  });

  it('names ports as /etc/services does, and back', () => {
    expect([portName('tcp', 80), portName('udp', 53), portName('tcp', 8080), portName('udp', 80)]).toEqual(['http', 'domain', 'http-alt', '80']); // prettier-ignore
    expect(portNumber('tcp', 'https')).toBe(443);
  });
});
