/**
 * The numbers the client tools accept, and what they make of them. Where a value is a timeout,
 * the expectation is what the real tool did with it, run against a peer that drops every packet
 * (two network namespaces, a veth pair, `iptables -A INPUT -j DROP` on the far side; curl 7.88.1,
 * Debian bookworm): `-m 0x1`, `-m ' 1'`, `-m 1e0` timed out after 1001 ms, `-m 0.3` after 301,
 * `-m 0.0015` after 1; `-m 0`, `-m -0`, `-m 0.0004` and `-m nan` never did (no limit). The
 * rejected texts are compared with the real tools in tests/kernel/client-args.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { curlSeconds, digUint, strtodWhole, strtonum } from './numbers';
import { parseCurlArgs, parseDigArgs, parseNcArgs, parseNslookupArgs } from './args';

describe('curl -m / --connect-timeout (str2udouble, then (long)(v * 1000))', () => {
  it.each([
    ['0x1', 1000],
    [' 1', 1000],
    ['1e0', 1000],
    ['0.3', 300],
    ['0.0015', 1],
    ['5.', 5000],
    ['.5', 500],
    ['+1', 1000],
    ['0x1.8p1', 3000],
  ])('%s → %d ms', (text, ms) => expect(curlSeconds(text)).toEqual({ ms }));

  it.each(['0', '-0', '0.0004', 'nan', 'nan(x)'])('%s → no limit', (text) =>
    expect(curlSeconds(text)).toEqual({ ms: undefined }),
  );

  it.each([
    ['abc', 'expected a proper numerical parameter'],
    ['1e', 'expected a proper numerical parameter'],
    ['0x', 'expected a proper numerical parameter'],
    ['-1', 'expected a positive numerical parameter'],
    ['-inf', 'expected a positive numerical parameter'],
    ['inf', 'too large number'],
    ['1e400', 'too large number'],
    ['1e-400', 'too large number'],
  ])('%s → %s', (text, error) => expect(curlSeconds(text)).toBe(error));

  it('strtod reads what C reads, and only to the end', () => {
    expect(strtodWhole('0x10')).toEqual({ ok: true, value: 16, erange: false });
    expect(strtodWhole('4e-320')).toMatchObject({ ok: true, erange: true });
    expect(strtodWhole('1_0')).toEqual({ ok: false });
    expect(strtodWhole('5 ')).toEqual({ ok: false });
  });
});

describe('the command lines', () => {
  it('curl combines short options as curl does, and takes the seconds attached or next', () => {
    for (const argv of [['-sSm5'], ['-sSm', '5'], ['-m5'], ['-s', '-m', '5']]) {
      const r = parseCurlArgs(['curl', ...argv, 'http://10.0.0.1/']);
      expect(r.ok && r.opts.maxTimeMs).toBe(5000);
    }
    // curl 7.88 has -k, -L and --insecure; the lab's curl says it does not model them.
    for (const [word, option] of [
      ['-L', '-L'],
      ['-sSk', '-k'],
      ['--insecure', '--insecure'],
    ]) {
      const r = parseCurlArgs(['curl', word!, 'http://x/']);
      expect(!r.ok && r.stderr).toBe(
        `curl: the lab's curl does not model ${option} (it has -s, -S, -v, -i, -I, -m, -o, -w, --connect-timeout)\n`,
      );
    }
    const both = parseCurlArgs(['curl', '-sS', '--connect-timeout', '2', '-m', '0', 'http://x/']);
    expect(both.ok && [both.opts.connectTimeoutMs, both.opts.maxTimeMs, both.opts.silent]).toEqual([
      2000,
      undefined,
      true,
    ]);
  });

  it('nc -w takes whole seconds, attached or next, as getopt and strtonum do', () => {
    for (const argv of [['-zvw', '2'], ['-zvw2'], ['-w', '2', '-zv']]) {
      const r = parseNcArgs(['nc', ...argv, '10.0.0.1', '80']);
      expect(r.ok && [r.opts.waitMs, r.opts.zero, r.opts.verbose]).toEqual([2000, true, true]);
    }
    // A real nc option the lab does not model is said to be one, not "invalid" (-Y is).
    const listen = parseNcArgs(['nc', '-l', '80']);
    expect(!listen.ok && listen.stderr).toBe(
      "nc: the lab's nc does not model -l (it has -z, -v, -u, -n, -w)\n",
    );
    const bad = parseNcArgs(['nc', '-Y', 'x', '80']);
    expect(!bad.ok && bad.stderr.split('\n')[0]).toBe("nc: invalid option -- 'Y'");
    expect(strtonum(' +7', 0, 10)).toBe(7);
    expect(strtonum('11', 0, 10)).toBe('too large');
  });

  it('dig reads -p and +timeout/+tries/+retry (and their prefixes) as decimal numbers', () => {
    const r = parseDigArgs(['dig', '-p5353', '+time=2', '+tri=4', 'x']);
    expect(r.ok && [r.opts.port, r.opts.timeoutMs, r.opts.tries]).toEqual([5353, 2000, 4]);
    const retry = parseDigArgs(['dig', '+ret=2', '+timeout=0', '+tries=0', 'x']);
    // Real dig against the dropping peer: +tries=0 made 1 try, +timeout=0 waited 1 s. The later
    // +tries wins over +retry.
    expect(retry.ok && [retry.opts.timeoutMs, retry.opts.tries]).toEqual([1000, 1]);
    expect(digUint('65535', 0xffff)).toBe(65535);
    expect(digUint('65536', 0xffff)).toBe('out of range');
    expect(digUint('0x35', 0xffff)).toBe('not a valid number');
  });

  it('nslookup says a bad -port is invalid on stdout and keeps port 53 (as nslookup 9.18 did)', () => {
    // Real nslookup, -port=abc / -port=70000 / -port=: this line first, then it queried port 53.
    for (const [text, reason] of [
      ['abc', 'not a valid number'],
      ['70000', 'out of range'],
      ['', 'not a valid number'],
    ] as const) {
      const r = parseNslookupArgs(['nslookup', `-port=${text}`, 'x']);
      expect(r.ok && [r.opts.port, r.stdout]).toEqual([53, `invalid port '${text}': ${reason}\n`]);
    }
    const ok = parseNslookupArgs(['nslookup', '-port=5353', 'x']);
    expect(ok.ok && [ok.opts.port, ok.stdout]).toEqual([5353, undefined]);
  });

  it('nslookup -type=srv says the lab looks up addresses only, rather than printing an A answer', () => {
    // Before, the option was skipped and nslookup printed the Service's address for an SRV ask.
    for (const opt of ['-type=srv', '-query=SRV', '-q=mx']) {
      const r = parseNslookupArgs(['nslookup', opt, 'x']);
      expect(r.ok ? undefined : [r.exitCode, r.stderr]).toEqual([
        1,
        expect.stringMatching(/^nslookup: the lab's nslookup looks up addresses only, not -type=/),
      ]);
    }
    expect(parseNslookupArgs(['nslookup', '-type=a', 'x']).ok).toBe(true);
  });

  it('dig @NAME and nslookup NAME SERVER-NAME say the lab takes the server as an address', () => {
    // Real dig and nslookup would look the name up first; the lab's do not, and say so rather
    // than time out querying a "server" that is not an address.
    const dig = parseDigArgs(['dig', '@kube-dns.kube-system.svc.cluster.local', 'x']);
    expect(!dig.ok && [dig.exitCode, dig.stderr]).toEqual([
      1,
      "dig: the lab's dig takes the server as an IPv4 address (@10.96.0.10), not a name to look up: @kube-dns.kube-system.svc.cluster.local\n",
    ]);
    const ns = parseNslookupArgs(['nslookup', 'x', 'kube-dns']);
    expect(!ns.ok && ns.stderr).toMatch(
      /^nslookup: the lab's nslookup takes the server as an IPv4/,
    );
    expect(parseDigArgs(['dig', '@10.96.0.10', 'x']).ok).toBe(true);
  });
});
