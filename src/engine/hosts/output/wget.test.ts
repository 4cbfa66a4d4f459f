/**
 * wget's pieces that tests/kernel/wget.test.ts (root only) does not reach at every size. The
 * expected texts were captured from GNU Wget 1.21.3 (/usr/bin/wget, Debian bookworm) on a pty
 * (`script -qec 'stty cols N; wget …'`), serving a 56-byte body with nc in a namespace.
 */
import { describe, expect, it } from 'vitest';
import { wgetRequest } from '../apps/http';
import { parseWgetArgs } from '../programs/wget-args';
import { barImage, dotsLine, humanReadable } from './wget-bar';
import { wgetFileName, wgetOutput, wgetRate } from './wget';

describe('wget progress bar (progress.c create_image)', () => {
  it('draws the first and last image of an instant transfer at 80 and 100 columns', () => {
    const at = (name: string, columns: number, done: boolean) =>
      barImage({ name, columns, total: 56, received: done ? 56 : 0, done });
    expect(at('index.html.1', 80, false)).toBe(
      'index.html.1          0%[                    ]       0  --.-KB/s               ',
    );
    expect(at('index.html.1', 80, true)).toBe(
      'index.html.1        100%[===================>]      56  --.-KB/s    in 0s      ',
    );
    expect(at('-', 100, false)).toBe(
      '-                          0%[                                   ]       0  --.-KB/s               ',
    );
    expect(at('-', 100, true)).toBe(
      '-                        100%[==================================>]      56  --.-KB/s    in 0s      ',
    );
  });

  it('scrolls a long file name in the first image and cuts it in the last', () => {
    const name = 'averyveryverylongfilenamethatgoesonandon.txt';
    expect(barImage({ name, columns: 100, total: 56, received: 0, done: false })).toBe(
      '            averyveryver   0%[                                   ]       0  --.-KB/s               ',
    );
    expect(barImage({ name, columns: 100, total: 56, received: 56, done: true })).toBe(
      'averyveryverylongfilenam 100%[==================================>]      56  --.-KB/s    in 0s      ',
    );
  });

  it('draws the dots of a one-row transfer in their 55 columns (stderr not a terminal)', () => {
    // The real wget, 56 bytes, 2>&1 | cat: `     0K` + 55 spaces + `100% 9.71M=0s`; the lab's
    // rate is calc_rate's for 0 s (56 B / 0.5 ns = 104 GiB/s).
    expect(dotsLine(56, 56)).toBe(`     0K${' '.repeat(55)}100%  104G=0s`);
  });

  it('prints sizes as human_readable(n, 1000, 2) does, cut to its 8-byte buffer', () => {
    // The real wget's last image for bodies of these sizes (-O /dev/null, 80 columns).
    expect([56, 1024, 1536, 1_048_576, 1_023_999].map(humanReadable)).toEqual([
      '56',
      '1.00K',
      '1.50K',
      '1.00M',
      '1000.00',
    ]);
  });
});

describe('wget texts', () => {
  it('rates a zero-time transfer as calc_rate does (0.5 ns: half a 1 ns resolution)', () => {
    // 56 B / 0.5e-9 s = 1.12e11 B/s = 104.3 GiB/s; %.0f at or above 99.95.
    expect(wgetRate(56, 0)).toBe('104 GB/s');
    // retr_rate()'s "%.*f %s": 2 decimals below 9.995, 1 below 99.95, else none.
    expect(wgetRate(56, 1)).toBe('56.0 B/s');
    expect(wgetRate(5000, 1)).toBe('4.88 KB/s');
  });

  it('names the saved file after the last path segment, index.html for a directory', () => {
    // `wget -nv` saved /x?y=1 as "x?y=1" and /a/b/ as "index.html".
    expect(['/', '/hostname', '/a/b/', '/x?y=1'].map(wgetFileName)).toEqual([
      'index.html',
      'hostname',
      'index.html',
      'x?y=1',
    ]);
  });

  it('sends the request the real wget sent (-U foo/1 --header=X-A: b), byte for byte', () => {
    const parsed = parseWgetArgs(['wget', '-U', 'foo/1', '--header=X-A: b', 'http://web:8080/x']);
    if (!parsed.ok) throw new Error(parsed.stderr);
    const o = parsed.opts;
    const request = wgetRequest(o, { method: 'GET', userAgent: o.userAgent, headers: o.headers });
    expect(request).toBe(
      'GET /x HTTP/1.1\r\nHost: web:8080\r\nUser-Agent: foo/1\r\nAccept: */*\r\n' +
        'Accept-Encoding: identity\r\nConnection: Keep-Alive\r\nX-A: b\r\n\r\n',
    );
    expect(o.url).toBe('http://web:8080/x');
  });

  it('reads -t, -T and -nv as wget does', () => {
    const opts = (...a: string[]) => {
      const p = parseWgetArgs(['wget', ...a, 'web']);
      return p.ok ? p.opts : p.stderr;
    };
    expect(opts('-t', 'inf', '-T', '1.5m', '-nv')).toMatchObject({
      tries: 0,
      timeoutMs: 90_000,
      verbosity: 'brief',
    });
    expect(opts('--tries=3', '--timeout=0', '-q')).toMatchObject({
      tries: 3,
      timeoutMs: undefined,
      verbosity: 'quiet',
    });
    expect(opts('-r')).toBe(
      "wget: the lab's wget does not model -r (it has -q, -O, -S, -T, -t, -nv, -v, -U, --header, --spider)\n",
    );
  });

  it('says Retrying. after a failed try while -t allows more, even if wget is stopped there', () => {
    // http.c printwhat(): by the try count and -t alone. The real wget printed `Retrying.`
    // after try 1 of `-T 1 -t 3` (tests/kernel/wget.test.ts); a wget stopped (Ctrl-C, or the
    // lab's 15 minutes) in the sleep that follows has printed just that.
    const parsed = parseWgetArgs(['wget', '-O-', 'http://10.96.0.30/']);
    if (!parsed.ok) throw new Error(parsed.stderr);
    const tr = [
      { t: 0, kind: 'wget-try', try: 1 },
      { t: 0, kind: 'trying', addr: '10.96.0.30', port: 80 },
      { t: 127_000, kind: 'connect-failed', errno: 'ETIMEDOUT' },
    ] as const;
    const last = (tries: number) =>
      wgetOutput({ ...parsed.opts, tries }, tr, { epochSeconds: 0 })
        .stderr.split('\n')
        .at(-3);
    expect([last(0), last(2), last(20), last(1)]).toEqual([
      'Retrying.',
      'Retrying.',
      'Retrying.',
      'Giving up.',
    ]);
  });
});
