// A node's /proc/sys files are its sysctls: what `sysctl` reads and writes, read with `cat`
// and written by a redirection (tests/kernel/proc-sys-writes.test.ts compares the messages
// and values with bash and the kernel).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../scenario';
import { runScript } from './run-script';
import { World } from './world';

interface Out {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

function run(script: string, world = World.fromScenario(DEFAULT_SCENARIO).world): Out[] {
  const out: Out[] = [];
  runScript(world, script, { readFile: () => undefined, onOutput: (_l, r) => out.push(r) });
  return out;
}

const BRIDGE = '/proc/sys/net/bridge/bridge-nf-call-iptables';

describe('/proc/sys on a node', () => {
  it('reads every sysctl the lab models, the conntrack table’s own included', () => {
    const [count, loose, established] = run(
      [
        'node-1$ cat /proc/sys/net/netfilter/nf_conntrack_count',
        'node-1$ cat /proc/sys/net/netfilter/nf_conntrack_tcp_loose',
        'node-1$ cat /proc/sys//net/netfilter/nf_conntrack_tcp_timeout_established',
      ].join('\n'),
    );
    expect(count?.stdout).toBe('0\n');
    expect(loose?.stdout).toBe('1\n');
    // kube-proxy's conntrack settings (KubeProxyConntrackConfiguration: 24h).
    expect(established?.stdout).toBe('86400\n');
  });

  it('`echo 0 >` bridge-nf-call-iptables breaks same-node Service traffic as sysctl -w does', () => {
    // Experiment 2's cluster: 10.96.1.11's only pod is on node-1, with the client.
    const yaml = readFileSync(new URL('../../../scenarios/02-same-node-bridge-nf/scenario.yaml', import.meta.url), 'utf8'); // prettier-ignore
    const out = run(
      [
        'pod/client$ curl -sS -m 2 http://10.96.1.11/',
        `node-1$ echo 0 > ${BRIDGE}`,
        'node-1$ sysctl net.bridge.bridge-nf-call-iptables',
        'node-1$ conntrack -F',
        'pod/client$ curl -sS -m 2 http://10.96.1.11/',
        `node-1$ echo 1 > ${BRIDGE}`,
        'node-1$ conntrack -F',
        'pod/client$ curl -sS -m 2 http://10.96.1.11/',
      ].join('\n'),
      World.fromScenario(yaml).world,
    );
    expect(out.map((o) => o.exitCode)).toEqual([0, 0, 0, 0, 28, 0, 0, 0]);
    expect(out[2]?.stdout).toBe('net.bridge.bridge-nf-call-iptables = 0\n');
    for (const answered of [out[0], out[7]])
      expect(answered?.stdout).toMatch(/^web-1 \(10\.244\.0\.4:8080\): you are 10\.244\.0\.5:/);
  });

  it('a timeout written by a redirection applies to the next connection', () => {
    const [, , tw] = run(
      [
        'node-1$ echo 5 > /proc/sys/net/netfilter/nf_conntrack_tcp_timeout_time_wait',
        'pod/client$ curl -s http://10.96.1.1/',
        'node-1$ conntrack -L -p tcp',
      ].join('\n'),
    );
    expect(tw?.stdout).toMatch(/^tcp {6}6 5 TIME_WAIT /);
  });

  it('bad writes: the value stays, bash says why, in the order of the redirections', () => {
    const out = run(
      [
        `node-1$ echo abc > ${BRIDGE}`,
        `node-1$ echo abc > ${BRIDGE} 2>/dev/null`,
        'node-1$ echo 1 2>/dev/null > /proc/sys/net/netfilter/nf_conntrack_count',
        'node-1$ echo 1 > /proc/sys/net/netfilter/nf_conntrack_count 2>/dev/null',
        'node-1$ echo 1 > /proc/sys/net/nosuch',
        `node-1$ cat ${BRIDGE}`,
      ].join('\n'),
    );
    expect(out.map((o) => [o.stderr, o.exitCode])).toEqual([
      ['bash: echo: write error: Invalid argument\n', 1],
      ['', 1],
      ['', 1],
      ['bash: /proc/sys/net/netfilter/nf_conntrack_count: Permission denied\n', 1],
      ['bash: /proc/sys/net/nosuch: No such file or directory\n', 1],
      ['', 0],
    ]);
    expect(out[5]?.stdout).toBe('1\n');
  });

  it('says what it does not model instead of writing: other hosts, other files, loops', () => {
    const out = run(
      [
        'pod/client$ echo 1 > /proc/sys/net/ipv4/ip_forward',
        'node-1$ echo 1 > /proc/sys/net/netfilter/nf_conntrack_max',
        'node-1$ echo 1 > /tmp/out',
        `node-1$ for v in 0; do echo $v; done > ${BRIDGE}`,
        `node-1$ cat ${BRIDGE}`,
      ].join('\n'),
    );
    expect(out[0]?.stderr).toMatch(/^lab: \/proc\/sys\/net\/ipv4\/ip_forward is not modelled on this host;/); // prettier-ignore
    expect(out[1]?.stderr).toMatch(/^lab: \/proc\/sys\/net\/netfilter\/nf_conntrack_max is not modelled/); // prettier-ignore
    expect(out[2]?.stderr).toMatch(/^lab shell: writing to \/tmp\/out is not supported/);
    expect(out[3]?.stderr).toMatch(/^lab shell: writing to \/proc\/sys\/net\/bridge\/bridge-nf-call-iptables is not supported/); // prettier-ignore
    expect(out.slice(0, 4).map((o) => o.exitCode)).toEqual([1, 1, 1, 1]);
    expect(out[4]?.stdout).toBe('1\n');
  });
});
