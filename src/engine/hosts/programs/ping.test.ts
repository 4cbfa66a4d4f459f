/**
 * ping in the lab: its statistics as iputils' finish() prints them (ping_common.c: loss with
 * "%g", "+N errors", "pipe N", the empty line when nothing came back), and what each proxy
 * mode does to an echo request for a ClusterIP. The command line's errors and a real exchange
 * are compared with the real iputils ping in tests/kernel/ping-args.test.ts and experiment 09.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../scenario';
import { runScript } from '../../sim/run-script';
import { World } from '../../sim/world';
import { pingOutput } from '../output/ping';
import { parsePingArgs } from './ping-args';
import type { PingOptions, TranscriptEntry } from './types';

function run(scenario: string, script: string): string {
  const { world } = World.fromScenario(scenario);
  let out = '';
  runScript(world, script, {
    readFile: () => undefined,
    onOutput: (_l, r) => {
      out += r.stdout + r.stderr;
    },
  });
  return out;
}

const OPTS: PingOptions = { host: '10.0.0.2', count: 3, intervalMs: 1000, timeoutMs: 10_000, quiet: false, size: 56 }; // prettier-ignore

describe('ping statistics as iputils prints them', () => {
  it('replies, errors, loss as %g and the largest number in flight', () => {
    const t: TranscriptEntry[] = [
      { t: 0, kind: 'resolved', addr: '10.0.0.2' },
      { t: 0, kind: 'echo-reply', seq: 1, from: '10.0.0.2', ttl: 63 },
      { t: 3000, kind: 'echo-error', seq: 2, from: '10.0.0.1', type: 3, code: 1 },
      { t: 3000, kind: 'echo-error', seq: 3, from: '10.0.0.1', type: 3, code: 1 },
      { t: 3000, kind: 'ping-done', transmitted: 3, timeMs: 2000, pipe: 2 },
    ];
    expect(pingOutput(OPTS, t, 0).stdout).toBe(
      'PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.\n' +
        '64 bytes from 10.0.0.2: icmp_seq=1 ttl=63 time=0.000 ms\n' +
        'From 10.0.0.1 icmp_seq=2 Destination Host Unreachable\n' +
        'From 10.0.0.1 icmp_seq=3 Destination Host Unreachable\n' +
        '\n--- 10.0.0.2 ping statistics ---\n' +
        '3 packets transmitted, 1 received, +2 errors, 66.6667% packet loss, time 2000ms\n' +
        'rtt min/avg/max/mdev = 0.000/0.000/0.000/0.000 ms, pipe 2\n',
    );
  });

  it('-q keeps the banner and the statistics only', () => {
    const t: TranscriptEntry[] = [
      { t: 0, kind: 'resolved', addr: '10.0.0.2' },
      { t: 0, kind: 'echo-reply', seq: 1, from: '10.0.0.2', ttl: 64 },
      { t: 0, kind: 'ping-done', transmitted: 1, timeMs: 0, pipe: 1 },
    ];
    expect(pingOutput({ ...OPTS, quiet: true, count: 1 }, t, 0).stdout).toBe(
      'PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.\n\n--- 10.0.0.2 ping statistics ---\n' +
        '1 packets transmitted, 1 received, 0% packet loss, time 0ms\n' +
        'rtt min/avg/max/mdev = 0.000/0.000/0.000/0.000 ms\n',
    );
  });

  it('asks for -c or -w, and -n for a name, instead of running forever or inventing names', () => {
    expect(parsePingArgs(['ping', '10.0.0.1'])).toMatchObject({ ok: false, exitCode: 2 });
    expect(parsePingArgs(['ping', '-c', '1', 'web'])).toMatchObject({ ok: false, exitCode: 2 });
    expect(parsePingArgs(['ping', '-nc1', 'web'])).toMatchObject({ ok: true, opts: { count: 1 } });
  });
});

describe('ping in the cluster', () => {
  it('a pod on another node answers after two routers; its conntrack entry is ICMP', () => {
    const out = run(DEFAULT_SCENARIO, 'pod/client$ ping -c 2 10.244.1.2\nnode-1$ conntrack -L -p icmp\n'); // prettier-ignore
    expect(out).toContain('64 bytes from 10.244.1.2: icmp_seq=2 ttl=62 time=0.000 ms\n');
    expect(out).toContain('2 packets transmitted, 2 received, 0% packet loss, time 1000ms\n');
    expect(out).toMatch(/^icmp {5}1 30 src=10\.244\.0\.5 dst=10\.244\.1\.2 type=8 code=0 id=\d+ src=10\.244\.1\.2 dst=10\.244\.0\.5 type=0 code=0 id=\d+ mark=0 use=1$/m); // prettier-ignore
  });

  it('iptables mode: no rule matches ICMP for a ClusterIP, nobody answers (-W s waited)', () => {
    const out = run(DEFAULT_SCENARIO, 'pod/client$ ping -c 1 -W 2 10.96.0.10\nnode-1$ conntrack -L -p icmp\n'); // prettier-ignore
    expect(out).toContain('1 packets transmitted, 0 received, 100% packet loss, time 0ms\n\n');
    expect(out).toMatch(/^icmp {5}1 28 .* \[UNREPLIED\] /m);
  });

  it('IPVS mode: KUBE-IPVS-FILTER rejects what no virtual server takes (kube-proxy v1.28+)', () => {
    const out = run(DEFAULT_SCENARIO.replace(/^mode: iptables/m, 'mode: ipvs'), 'pod/client$ ping -c 1 10.96.0.10\n'); // prettier-ignore
    expect(out).toContain('From 10.96.0.10 icmp_seq=1 Destination Port Unreachable\n');
    expect(out).toContain('1 packets transmitted, 0 received, +1 errors, 100% packet loss');
  });

  it('nftables mode: traffic to a ClusterIP no service port took is rejected', () => {
    const out = run(DEFAULT_SCENARIO.replace(/^mode: iptables/m, 'mode: nftables'), 'pod/client$ ping -c 1 10.96.0.10\n'); // prettier-ignore
    expect(out).toContain('icmp_seq=1 Destination Port Unreachable\n');
  });
});
