/**
 * Command lines run on node-1 of the built-in scenario and in a throwaway namespace set up as
 * a node's, for tests that compare the two line by line (each as `stdout|stderr|status`).
 */
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import type { NsRun } from './netns';

/** The lines through the lab's runner on node-1, in order, on one evolving cluster. */
export function labOnNode1(lines: readonly string[]): string[] {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const out: string[] = [];
  runScript(world, lines.map((l) => `node-1$ ${l}`).join('\n'), {
    readFile: () => undefined,
    onOutput: (_l, r) => out.push(`${r.stdout}|${r.stderr}|${r.exitCode}`),
  });
  return out;
}

/**
 * Gives a fresh namespace a node's sysctls: forwarding on, conntrack and br_netfilter loaded
 * (their keys exist), and kube-proxy's conntrack settings at start
 * (KubeProxyConntrackConfiguration defaults: established 24 h, close_wait 1 h).
 */
export function asNode(run: NsRun): void {
  run(['sysctl', '-qw', 'net.ipv4.ip_forward=1']);
  run(['iptables', '-t', 'nat', '-L', '-n']);
  run(['sh', '-c', 'modprobe nf_conntrack 2>/dev/null; modprobe br_netfilter 2>/dev/null; true']);
  run(['sysctl', '-qw', 'net.netfilter.nf_conntrack_tcp_timeout_established=86400']);
  run(['sysctl', '-qw', 'net.netfilter.nf_conntrack_tcp_timeout_close_wait=3600']);
}
