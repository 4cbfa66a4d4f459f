/**
 * What a send accepts (worker/send-input.ts), the rules the Send form and the worker share.
 * Ranges: a TCP/UDP port is 16 bits and port 0 is not connectable (RFC 6335 §6); the count's
 * 1–20 is the lab's own limit (the worker clamped to it before protocol v9). The IPv4 rule
 * refuses what inet_aton(3) would read differently from how it looks (`010` is octal 8).
 */
import { describe, expect, it } from 'vitest';
import { LabSession } from '../../src/worker/lab-session';
import {
  isDottedIPv4,
  parseAddressText,
  parseCountText,
  sendRequestProblems,
} from '../../src/worker/send-input';
import type { SendRequest } from '../../src/protocol/lab';

const PORTS = { min: '1', max: '65535' };
const COUNTS = { min: '1', max: '20' };

describe('isDottedIPv4', () => {
  it.each(['10.96.0.10', '0.0.0.0', '255.255.255.255', '192.168.1.100'])('takes %s', (ip) =>
    expect(isDottedIPv4(ip)).toBe(true),
  );
  it.each([
    '10.96.0.999',
    '256.1.1.1',
    '10.96.0',
    '10.96.0.10.1',
    '010.96.0.10',
    'web',
    '',
    '1..2.3',
    ' 1.2.3.4',
    '::1',
  ])('refuses %j', (ip) => expect(isDottedIPv4(ip)).toBe(false));
});

describe('parseAddressText', () => {
  it('reads IP:port, with spaces around it trimmed', () => {
    expect(parseAddressText(' 10.96.0.10:53 ', 'udp')).toEqual({
      ok: true,
      value: { ip: '10.96.0.10', port: 53 },
    });
    expect(parseAddressText('10.96.0.1:65535', 'tcp')).toMatchObject({ ok: true });
  });

  it('says which part is wrong', () => {
    const problem = (text: string, protocol: SendRequest['protocol'] = 'tcp') => {
      const r = parseAddressText(text, protocol);
      return r.ok ? undefined : r.problem;
    };
    expect(problem('')).toEqual({ field: 'address', code: 'addressEmpty', params: {} });
    expect(problem('   ')).toMatchObject({ code: 'addressEmpty' });
    expect(problem('10.96.0.999:53')).toEqual({
      field: 'address',
      code: 'addressNotIPv4',
      params: { text: '10.96.0.999' },
    });
    expect(problem('kube-dns:53')).toMatchObject({
      code: 'addressNotIPv4',
      params: { text: 'kube-dns' },
    });
    expect(problem('10.96.0.10')).toEqual({ field: 'address', code: 'portMissing', params: PORTS });
    for (const port of ['0', '65536', '-1', '5.3', '1e3', '', 'http', '99999999999'])
      expect(problem(`10.96.0.10:${port}`)).toEqual({
        field: 'address',
        code: 'portRange',
        params: { text: port, ...PORTS },
      });
  });

  it('lets ICMP go without a port (port 0 in the request), but checks one that is typed', () => {
    expect(parseAddressText('10.96.0.10', 'icmp')).toEqual({
      ok: true,
      value: { ip: '10.96.0.10', port: 0 },
    });
    expect(parseAddressText('10.96.0.10:80', 'icmp')).toMatchObject({
      ok: true,
      value: { port: 80 },
    });
    expect(parseAddressText('10.96.0.10:0', 'icmp')).toMatchObject({
      ok: false,
      problem: { code: 'portRange' },
    });
  });
});

describe('parseCountText', () => {
  it.each([
    ['1', 1],
    ['20', 20],
    [' 7 ', 7],
  ])('takes %j as %d', (text, n) => expect(parseCountText(text)).toEqual({ ok: true, value: n }));
  it.each(['0', '21', '2.5', '-1', '1e9', '+3', '0x3', 'three'])(
    'refuses %j: not rounded, not clamped',
    (text) =>
      expect(parseCountText(text)).toEqual({
        ok: false,
        problem: { field: 'count', code: 'countRange', params: { text, ...COUNTS } },
      }),
  );
  it('tells an empty field from text the number field could not read', () => {
    expect(parseCountText('')).toMatchObject({ ok: false, problem: { code: 'countEmpty' } });
    expect(parseCountText('', true)).toMatchObject({ ok: false, problem: { code: 'countRange' } });
  });
});

describe('sendRequestProblems (the worker gate)', () => {
  const topology = new LabSession().topology();
  const ok: SendRequest = {
    from: 'pod/default/client',
    to: { kind: 'service', namespace: 'kube-system', name: 'kube-dns', port: 53 },
    protocol: 'udp',
    count: 1,
  };
  const problems = (change: Partial<SendRequest>) =>
    sendRequestProblems({ ...ok, ...change }, topology);

  it('passes what the form offers: any source, any Service port, an address, ICMP without a port', () => {
    expect(problems({})).toEqual([]);
    for (const from of ['node-1', 'laptop', 'pod/default/client'])
      expect(problems({ from })).toEqual([]);
    expect(
      problems({ to: { kind: 'address', ip: '10.96.0.1', port: 443 }, protocol: 'tcp' }),
    ).toEqual([]);
    expect(
      problems({ to: { kind: 'address', ip: '10.96.0.1', port: 0 }, protocol: 'icmp' }),
    ).toEqual([]);
  });

  it('names every bad field, in the form order', () => {
    expect(
      problems({
        from: 'pod/default/gone',
        to: { kind: 'address', ip: '10.96.0.999', port: 53 },
        protocol: 'sctp' as SendRequest['protocol'],
        count: 2.5,
      }).map((p) => [p.field, p.code]),
    ).toEqual([
      ['from', 'sourceUnknown'],
      ['address', 'addressNotIPv4'],
      ['protocol', 'protocolUnknown'],
      ['count', 'countRange'],
    ]);
    expect(
      problems({ to: { kind: 'service', namespace: 'default', name: 'nope', port: 80 } }),
    ).toEqual([{ field: 'to', code: 'serviceUnknown', params: { name: 'default/nope' } }]);
    expect(problems({ to: { kind: 'address', ip: '10.96.0.10', port: 0 } })).toEqual([
      { field: 'address', code: 'portRange', params: { text: '0', ...PORTS } },
    ]);
  });

  it('survives a request that is not one (the protocol is an API)', () => {
    const junk = { from: 7, to: null, protocol: 'x', count: '3' } as unknown as SendRequest;
    expect(sendRequestProblems(junk, topology).map((p) => p.code)).toEqual([
      'sourceUnknown',
      'serviceUnknown',
      'protocolUnknown',
      'countRange',
    ]);
  });
});
