// The conntrack sysctls read and write the node's table (values and bounds are checked against
// the kernel in tests/kernel/node-tool-args.test.ts); here: what a write changes, and when.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../scenario';
import { runScript } from '../sim/run-script';
import { World } from '../sim/world';

function session() {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  return (line: string): string => {
    let out = '';
    runScript(world, line, {
      readFile: () => undefined,
      onOutput: (_l, r) => {
        out += r.stdout + r.stderr;
      },
    });
    return out;
  };
}

describe('conntrack sysctls on a node', () => {
  it('start as kube-proxy leaves them and count the confirmed entries', () => {
    const run = session();
    expect(run('node-1$ sysctl -n net.netfilter.nf_conntrack_tcp_timeout_established')).toBe(
      '86400\n',
    );
    expect(run('node-1$ sysctl -n net.netfilter.nf_conntrack_tcp_timeout_close_wait')).toBe(
      '3600\n',
    );
    expect(run('node-1$ sysctl -n net.netfilter.nf_conntrack_tcp_timeout_time_wait')).toBe('120\n');
    expect(run('node-1$ sysctl -n net.netfilter.nf_conntrack_count')).toBe('0\n');
    run('pod/client$ curl -s -o /dev/null http://10.96.1.1/');
    expect(run('node-1$ sysctl -n net.netfilter.nf_conntrack_count')).toBe(
      run('node-1$ conntrack -C'),
    );
    expect(run('node-1$ sysctl -n net.netfilter.nf_conntrack_count')).toBe('1\n');
  });

  it('a shorter TIME_WAIT timeout applies to the packets after the write', () => {
    const run = session();
    run('pod/client$ curl -s -o /dev/null http://10.96.1.1/');
    run('node-1$ sysctl -qw net.netfilter.nf_conntrack_tcp_timeout_time_wait=5');
    run('pod/client$ curl -s -o /dev/null http://10.96.1.1/');
    // The first connection's entry keeps the expiry its last packet set; the second's got 5 s.
    const timers = [...run('node-1$ conntrack -L -p tcp').matchAll(/^tcp +6 (\d+) TIME_WAIT/gm)];
    expect(timers.map((m) => Number(m[1])).sort((a, b) => a - b)).toEqual([5, 120]);
    run('node-1$ sleep 6');
    expect(run('node-1$ conntrack -C')).toBe('1\n');
  });

  it('tcp_loose=0 stops the pick-up of a connection seen mid-stream', () => {
    const run = session();
    expect(run('node-1$ sysctl -w net.netfilter.nf_conntrack_tcp_loose=0')).toBe(
      'net.netfilter.nf_conntrack_tcp_loose = 0\n',
    );
    expect(run('node-1$ sysctl net.netfilter.nf_conntrack_tcp_loose')).toBe(
      'net.netfilter.nf_conntrack_tcp_loose = 0\n',
    );
  });
});
