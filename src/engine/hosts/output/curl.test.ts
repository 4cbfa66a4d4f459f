import { describe, expect, it } from 'vitest';
import { curlRequest } from '../apps/http';
import { parseCurlArgs } from '../programs/args';
import type { CurlOptions, TranscriptEntry } from '../programs/types';
import { curlOutput } from './curl';
import { meterLine } from './progress';

/**
 * Golden texts: curl 7.88.1 (Debian bookworm) run in a network namespace against a Python server
 * answering like Go's net/http, a closed port, a port that resets, and a blackholed address.
 */
const RESPONSE =
  'HTTP/1.1 200 OK\r\nDate: Mon, 02 Dec 2024 14:22:00 GMT\r\nContent-Length: 31\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nweb-x: you are 10.99.0.1:47164\n';

function opts(...args: string[]): CurlOptions {
  const r = parseCurlArgs(['curl', ...args]);
  if (!r.ok) throw new Error(r.stderr);
  return r.opts;
}

const trying = (t: number, addr: string, port: number): TranscriptEntry => ({
  t,
  kind: 'trying',
  addr,
  port,
});
function ok(o: CurlOptions, addr: string, t = 7): TranscriptEntry[] {
  return [
    { t: 0, kind: 'resolved', addr },
    trying(0, addr, o.port),
    { t: 0, kind: 'connected', local: { addr: '10.99.0.1', port: 47164 } },
    { t: 0, kind: 'sent', text: curlRequest(o.host, o.port, o.path) },
    { t, kind: 'received', text: RESPONSE },
  ];
}
const run = (o: CurlOptions, tr: TranscriptEntry[], stdoutIsTty = true) =>
  curlOutput(o, tr, { startedAt: 0, stdoutIsTty });

describe('curl output (7.88.1)', () => {
  it('prints the body only, on a terminal', () => {
    const o = opts('http://10.99.0.2:8080/');
    expect(run(o, ok(o, '10.99.0.2'))).toMatchObject({
      stdout: 'web-x: you are 10.99.0.1:47164\n',
      stderr: '',
      exitCode: 0,
    });
  });

  it('-sv into a file: the verbose lines as curl wrote them (`{ [31 bytes data]` when stdout is no tty)', () => {
    const o = opts('-sv', 'http://10.99.0.2:8080/');
    const golden =
      '*   Trying 10.99.0.2:8080...\n* Connected to 10.99.0.2 (10.99.0.2) port 8080 (#0)\n> GET / HTTP/1.1\r\n> Host: 10.99.0.2:8080\r\n> User-Agent: curl/7.88.1\r\n> Accept: */*\r\n> \r\n< HTTP/1.1 200 OK\r\n< Date: Mon, 02 Dec 2024 14:22:00 GMT\r\n< Content-Length: 31\r\n< Content-Type: text/plain; charset=utf-8\r\n< \r\n{ [31 bytes data]\n* Connection #0 to host 10.99.0.2 left intact\n';
    expect(run(o, ok(o, '10.99.0.2'), false).stderr).toBe(golden);
    expect(run(o, ok(o, '10.99.0.2'), true).stderr).toBe(golden.replace('{ [31 bytes data]\n', ''));
  });

  it('-v with a name: `Connected to srv (10.99.0.2)`, `Host: srv:8080`', () => {
    const o = opts('-sv', 'http://srv:8080/');
    expect(run(o, ok(o, '10.99.0.2')).stderr).toContain(
      '* Connected to srv (10.99.0.2) port 8080 (#0)\n> GET / HTTP/1.1\r\n> Host: srv:8080\r\n',
    );
  });

  it('the progress meter when stdout is a pipe (speeds from the lab clock)', () => {
    const o = opts('http://10.99.0.2:8080/');
    const out = run(o, ok(o, '10.99.0.2', 7), false);
    // Real: `…   4004      0 --:--:-- --:--:-- --:--:--  4428`; the lab's current speed is the average.
    expect(out.stderr).toBe(
      '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n' +
        '                                 Dload  Upload   Total   Spent    Left  Speed\n' +
        '\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0' +
        '\r100    31  100    31    0     0   4428      0 --:--:-- --:--:-- --:--:--  4428\n',
    );
    expect(meterLine({ received: 0, elapsedMs: 2000 })).toBe(
      '  0     0    0     0    0     0      0      0 --:--:--  0:00:02 --:--:--     0',
    );
  });

  it.each([
    [
      ['-sS', 'http://10.99.0.2:81/'],
      [{ t: 5, kind: 'connect-failed', errno: 'ECONNREFUSED' }],
      "curl: (7) Failed to connect to 10.99.0.2 port 81 after 5 ms: Couldn't connect to server\n",
      7,
    ],
    [
      ['-sS', 'http://10.99.1.5/'],
      [{ t: 3045, kind: 'connect-failed', errno: 'ETIMEDOUT' }],
      "curl: (28) Failed to connect to 10.99.1.5 port 80 after 3045 ms: Couldn't connect to server\n",
      28,
    ],
    [
      ['-m', '2', 'http://10.99.1.5/'],
      [{ t: 2000, kind: 'deadline' }],
      'curl: (28) Connection timed out after 2001 milliseconds\n',
      28,
    ],
    [
      ['--connect-timeout', '2', 'http://10.99.1.5/'],
      [{ t: 2000, kind: 'deadline' }],
      'curl: (28) Failed to connect to 10.99.1.5 port 80 after 2001 ms: Timeout was reached\n',
      28,
    ],
    [
      ['-sS', 'http://10.99.0.2:9000/'],
      [
        { t: 0, kind: 'connected', local: { addr: '10.99.0.1', port: 1 } },
        { t: 1, kind: 'reset' },
      ],
      'curl: (56) Recv failure: Connection reset by peer\n',
      56,
    ],
    [
      ['-sS', '-m', '2', 'http://10.99.0.2:9001/'],
      [
        { t: 0, kind: 'connected', local: { addr: '10.99.0.1', port: 1 } },
        { t: 2000, kind: 'deadline' },
      ],
      'curl: (28) Operation timed out after 2001 milliseconds with 0 bytes received\n',
      28,
    ],
  ] as const)('curl %j', (args, tail, text, code) => {
    const o = opts(...args);
    const tr: TranscriptEntry[] = [trying(0, o.host, o.port), ...tail];
    const out = run(o, tr);
    expect([out.stderr, out.exitCode]).toEqual([text, code]);
    // Without -S, -s hides the error; the exit code stays.
    const silent = run({ ...o, silent: true, showError: false }, tr);
    expect([silent.stderr, silent.exitCode]).toEqual(['', code]);
  });

  it('(6) Could not resolve host, plain and -sSv', () => {
    const tr: TranscriptEntry[] = [{ t: 30, kind: 'resolve-failed', reason: 'nxdomain' }];
    expect(run(opts('-sS', 'http://nope:8080/'), tr).stderr).toBe(
      'curl: (6) Could not resolve host: nope\n',
    );
    expect(run(opts('-sSv', 'http://nope/'), tr).stderr).toBe(
      '* Could not resolve host: nope\n* Closing connection 0\ncurl: (6) Could not resolve host: nope\n',
    );
  });

  it('-v into a file with the meter: refused and -m timeout, as curl wrote them', () => {
    const refused = opts('-v', 'http://10.99.0.2:81/');
    expect(
      run(
        refused,
        [trying(0, '10.99.0.2', 81), { t: 1, kind: 'connect-failed', errno: 'ECONNREFUSED' }],
        false,
      ).stderr,
    ).toBe(
      "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0*   Trying 10.99.0.2:81...\n* connect to 10.99.0.2 port 81 failed: Connection refused\n* Failed to connect to 10.99.0.2 port 81 after 1 ms: Couldn't connect to server\n\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0\n* Closing connection 0\ncurl: (7) Failed to connect to 10.99.0.2 port 81 after 1 ms: Couldn't connect to server\n",
    );
    const slow = opts('-v', '-m', '1', 'http://10.99.1.5/');
    expect(
      run(slow, [trying(0, '10.99.1.5', 80), { t: 1000, kind: 'deadline' }], false).stderr,
    ).toBe(
      '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0*   Trying 10.99.1.5:80...\n* Connection timed out after 1001 milliseconds\n\r  0     0    0     0    0     0      0      0 --:--:--  0:00:01 --:--:--     0\n* Closing connection 0\ncurl: (28) Connection timed out after 1001 milliseconds\n',
    );
  });

  // Real run: ETIMEDOUT after 3048 ms (tcp_syn_retries=1); the lab's kernel gives up at exactly
  // 3000 ms, before the meter's third tick, as the real one did.
  it('-v into a file, kernel ETIMEDOUT after 3 s: meter updates each second (as curl wrote them)', () => {
    const o = opts('-v', 'http://10.99.1.5/');
    const m = (s: string) =>
      `\r  0     0    0     0    0     0      0      0 --:--:-- ${s} --:--:--     0`;
    expect(
      run(
        o,
        [trying(0, '10.99.1.5', 80), { t: 3000, kind: 'connect-failed', errno: 'ETIMEDOUT' }],
        false,
      ).stderr,
    ).toBe(
      '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n' +
        `${m('--:--:--')}*   Trying 10.99.1.5:80...\n${m(' 0:00:01')}${m(' 0:00:02')}* connect to 10.99.1.5 port 80 failed: Connection timed out\n` +
        "* Failed to connect to 10.99.1.5 port 80 after 3000 ms: Couldn't connect to server\n" +
        `${m(' 0:00:03')}\n* Closing connection 0\ncurl: (28) Failed to connect to 10.99.1.5 port 80 after 3000 ms: Couldn't connect to server\n`,
    );
  });
});
