/**
 * ss on the lab's hosts. Layout and cells are compared with the real ss in
 * tests/kernel/ss.test.ts; here: the timers (-o) as iproute2 6.1's print_ms_timer() spells
 * them (misc/ss.c; `timer:(timewait,59sec,0)` seen from the real ss one second into a
 * TIME-WAIT), and what the lab says where it models less than a real host.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../scenario';
import { runScript } from '../sim/run-script';
import { World } from '../sim/world';
import { msTimer } from './ss';

function run(lines: readonly string[]) {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const out: { stdout: string; stderr: string; exitCode: number }[] = [];
  runScript(world, lines.join('\n'), {
    readFile: () => undefined,
    onOutput: (_l, r) => out.push({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }),
  });
  return out;
}

describe('ss -o timers', () => {
  it('spells the time left as print_ms_timer does', () => {
    const cases: [number, string][] = [
      [60_000, '1min'],
      [59_000, '59sec'],
      [59_999, '59sec'],
      [9_500, '9.500ms'],
      [1_500, '1.500ms'],
      [200, '200ms'],
      [99_000, '1min39sec'],
      [99_500, '1min39sec'],
      [650_000, '10min'],
    ];
    for (const [ms, text] of cases) expect(msTimer(ms), String(ms)).toBe(text);
  });

  it('shows the TIME-WAIT timer of the client’s end, counting down with the clock', () => {
    const [, , sixty] = run([
      'pod/client$ curl -s 10.96.1.1',
      'pod/client$ sleep 1',
      'pod/client$ ss -tano | cat',
    ]);
    expect(sixty?.stdout).toMatch(
      /^TIME-WAIT 0 +0 +10\.244\.0\.5:\d+ +10\.96\.1\.1:80 +timer:\(timewait,59sec,0\)$/m,
    );
    expect(sixty?.stderr).toBe('');
  });

  it('says that keep-alive is not modelled where a Go server holds a connection', () => {
    const out = run([
      'pod/client$ lab flow open f1 tcp 10.96.1.1:80',
      ...['g2952', 'n4xdw', 'wtj7t'].map((p) => `pod/default/web-6bc869c565-${p}$ ss -tno`),
    ]);
    const notes = out.slice(1).map((r) => r.stderr);
    expect(notes.filter((n) => n.startsWith('lab: TCP keep-alive is not modelled'))).toHaveLength(
      1,
    );
  });
});

describe('what the lab says it leaves out', () => {
  it('notes the socket kinds it lists without -t/-u, and a node’s own daemons', () => {
    const [pod, node] = run(['pod/client$ ss -an', 'node-1$ ss -tln']);
    expect(pod?.stderr).toMatch(/^lab: the lab models TCP and UDP sockets only/);
    expect(pod?.stdout).toMatch(/^Netid State/);
    expect(node?.stdout).toMatch(/LISTEN 0 +4096 +\*:10250 /);
    expect(node?.stderr).toMatch(/^lab: a real node holds more sockets/);
  });

  it('notes filters and options it does not model; exit status 1', () => {
    const [filter, p] = run(['pod/client$ ss -tan state established dev eth0', 'pod/client$ ss -tp']); // prettier-ignore
    expect(filter).toEqual({
      stdout: '',
      stderr: 'lab: ss filters (dev eth0) are not modelled in kube-proxy-lab; pipe ss into grep\n',
      exitCode: 1,
    });
    expect(p?.stderr).toBe('lab: ss -p is not modelled in kube-proxy-lab\n');
  });
});
