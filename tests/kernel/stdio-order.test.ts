/**
 * `2>&1`: the order in which a tool's stdout and stderr reach one stream, compared with the
 * real tools (conntrack-tools 1.4.7, tcpdump 4.99, curl 7.88.1) in a throwaway namespace,
 * through a pipe (stdio buffers stdout fully) and, for conntrack and curl, on a terminal
 * (`script`'s pty: stdout line-buffered). The lines' texts differ (other addresses, ports,
 * times); their kinds and order must not.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import { netnsUnavailableReason, withNetns, type NsRun } from './netns';

const skip = netnsUnavailableReason();
if (skip !== undefined) console.log(`skipping the stdout/stderr order comparison: ${skip}`);

/** What each line is, consecutive repeats folded: the order that must match. */
function kinds(text: string, kindOf: (line: string) => string): string[] {
  const out: string[] = [];
  for (const line of text.replace(/\r/g, '').split('\n')) {
    if (line === '') continue;
    const k = kindOf(line);
    if (out.at(-1) !== k) out.push(k);
  }
  return out;
}

const conntrackKind = (l: string) => (/flow entries have been shown/.test(l) ? 'summary' : 'entry');
const tcpdumpKind = (l: string) =>
  /^(tcpdump: verbose|listening on)/.test(l)
    ? 'banner'
    : /packets? (captured|received|dropped)/.test(l)
      ? 'stats'
      : 'packet';
const curlKind = (l: string) =>
  /^\* +(Trying|Connected)/.test(l)
    ? 'connect'
    : l.startsWith('> ')
      ? 'request'
      : l.startsWith('< ')
        ? 'response'
        : l.startsWith('{ [')
          ? 'data'
          : /^\* (Connection #|Closing connection)/.test(l)
            ? 'done'
            : 'body';

/** The lines through the lab's runner; the stdout of each (2>&1 puts everything there). */
function lab(lines: readonly string[]): string[] {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const out: string[] = [];
  runScript(world, lines.join('\n'), {
    readFile: () => undefined,
    onOutput: (_l, r) => out.push(r.stdout),
  });
  return out;
}

/** A namespace with lo up and conntrack tracking (a rule that needs it), one ping tracked. */
function tracked(run: NsRun): void {
  run(['ip', 'link', 'set', 'lo', 'up']);
  run(['iptables', '-A', 'INPUT', '-m', 'conntrack', '--ctstate', 'NEW', '-j', 'ACCEPT']);
  run(['ping', '-c', '1', '-q', '127.0.0.1']);
}

const onPty = (command: string) => ['script', '-qec', command, '/dev/null'];

/** A one-shot HTTP server on 127.0.0.1:8080 (netcat-openbsd), then `command`. */
const withServer = (command: string) => [
  'sh',
  '-c',
  "printf 'HTTP/1.1 200 OK\\r\\nContent-Length: 3\\r\\n\\r\\nhi\\n' | timeout 10 nc -l -N 127.0.0.1 8080 >/dev/null & " +
    `sleep 0.3; ${command}; wait`,
];

describe.skipIf(skip !== undefined)('stdout and stderr in one stream, as the real tools', () => {
  it('conntrack -L: the summary first through a pipe, last on a terminal', () => {
    const real = withNetns((run) => {
      tracked(run);
      return [run(['sh', '-c', 'conntrack -L 2>&1 | cat']), run(onPty('conntrack -L 2>&1'))];
    });
    const [piped, tty] = lab([
      'pod/client$ curl -s http://10.96.1.1/',
      'node-1$ conntrack -L 2>&1 | cat',
      'node-1$ conntrack -L 2>&1',
    ]).slice(1);
    expect(kinds(real[0]!.stdout, conntrackKind)).toEqual(['summary', 'entry']);
    expect(kinds(real[1]!.stdout, conntrackKind)).toEqual(['entry', 'summary']);
    expect(kinds(piped!, conntrackKind)).toEqual(kinds(real[0]!.stdout, conntrackKind));
    expect(kinds(tty!, conntrackKind)).toEqual(kinds(real[1]!.stdout, conntrackKind));
  });

  it('tcpdump: banner, packets, statistics (it flushes stdout before its statistics)', () => {
    const real = withNetns((run) => {
      run(['ip', 'link', 'set', 'lo', 'up']);
      return run([
        'sh',
        '-c',
        '(sleep 1; ping -c 1 -q 127.0.0.1 >/dev/null) & timeout 10 tcpdump -n -i lo -c 2 2>&1 | cat; wait',
      ]);
    });
    const [piped] = lab([
      'pod/client$ curl -s http://10.96.1.1/',
      'node-1$ tcpdump -n -i cni0 -c 2 2>&1 | cat',
    ]).slice(1);
    expect(kinds(real.stdout, tcpdumpKind)).toEqual(['banner', 'packet', 'stats']);
    expect(kinds(piped!, tcpdumpKind)).toEqual(kinds(real.stdout, tcpdumpKind));
  });

  it('tcpdump: its statistics say "1 packet", "0 packets", "2 packets", as tcpdump words them', () => {
    // tcpdump's PLURAL_SUFFIX. How many packets the filter received is the kernel's count (it
    // may exceed -c); the lab counts those it shows, so only the captured line is compared.
    const real = withNetns((run) => {
      run(['ip', 'link', 'set', 'lo', 'up']);
      const capture = (count: number) =>
        run(['sh', '-c', `(sleep 1; ping -c 2 -i 0.2 -q 127.0.0.1 >/dev/null) & timeout 10 tcpdump -n -i lo -c ${count} 2>&1 >/dev/null; wait`]).stdout; // prettier-ignore
      const none = run(['sh', '-c', 'timeout -s INT 1 tcpdump -n -i lo 2>&1 >/dev/null; true']);
      return [capture(1), capture(2), none.stdout];
    });
    const captured = (text: string) => /^\d+ packets? captured$/m.exec(text)?.[0];
    const dropped = (text: string) => /^\d+ packets? dropped by kernel$/m.exec(text)?.[0];
    // The lab's tcpdump shows the packets since the previous command: a curl before each.
    const curl = 'pod/client$ curl -s http://10.96.1.1/';
    const [one, two, none] = lab([
      curl,
      'node-1$ tcpdump -n -i cni0 -c 1 2>&1 >/dev/null',
      curl,
      'node-1$ tcpdump -n -i cni0 -c 2 2>&1 >/dev/null',
      'node-1$ tcpdump -n -i eth0 port 9 2>&1 >/dev/null',
    ]).filter((_, i) => i === 1 || i >= 3);
    expect(real.map(captured)).toEqual(['1 packet captured', '2 packets captured', '0 packets captured']); // prettier-ignore
    expect([one, two, none].map((t) => captured(t!))).toEqual(real.map(captured));
    expect([one, two, none].map((t) => dropped(t!))).toEqual(real.map(dropped));
    expect(one).toMatch(/^1 packet received by filter$/m);
  });

  it('curl -sv: the body after all verbose lines through a pipe, inside them on a terminal', () => {
    const real = withNetns((run) => {
      run(['ip', 'link', 'set', 'lo', 'up']);
      const piped = run(withServer('curl -sv http://127.0.0.1:8080/ 2>&1 | cat'));
      const tty = run(withServer("script -qec 'curl -sv http://127.0.0.1:8080/ 2>&1' /dev/null"));
      return [piped, tty];
    });
    const [piped, tty] = lab([
      'pod/client$ curl -sv http://10.96.1.1/ 2>&1 | cat',
      'pod/client$ curl -sv http://10.96.1.1/ 2>&1',
    ]);
    // Through a pipe: `{ [N bytes data]` where the body arrived, the body itself at exit.
    expect(kinds(real[0]!.stdout, curlKind)).toEqual(['connect', 'request', 'response', 'data', 'done', 'body']); // prettier-ignore
    expect(kinds(real[1]!.stdout, curlKind)).toEqual(['connect', 'request', 'response', 'body', 'done']); // prettier-ignore
    expect(kinds(piped!, curlKind)).toEqual(kinds(real[0]!.stdout, curlKind));
    expect(kinds(tty!, curlKind)).toEqual(kinds(real[1]!.stdout, curlKind));
  });
});
