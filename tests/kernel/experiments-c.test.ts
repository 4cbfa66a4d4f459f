/**
 * Differential tests of experiments 07 and 08 (scenarios/): long-lived flows (`lab flow`) on
 * real sockets (./kernel-flows.ts) through a rolling update and a pod deletion; see
 * ./experiments-a.test.ts for what is compared. Both pin the kernel's load-balancing draws to
 * the engine's (./pin-draw.ts): their later steps depend on which pod a flow reached.
 */
import { describe, expect, it } from 'vitest';
import { clusterNetnsUnavailableReason } from './cluster-netns';
import { runExperiment, type KernelSide } from './experiment-diff';
import { describeAgreement, expectKernelAgrees } from './kernel-agrees';
import type { RunResult } from './netns';
import { sh } from './netns-env';

/**
 * Experiment 07's sleeps on the kernel, shortened honestly:
 *
 * - `sleep 31` (the grace period, and one second): nothing on the kernel side needs the 30 s
 *   to pass but the old pods' end; they are killed at once (SIGKILL, then CNI DEL), as the
 *   engine killed them at the end of the grace period, and the last second passes for real
 *   (the client's delayed ACK of the old pod's FIN goes out in it).
 * - `sleep 1000` (the kernel retransmits into the void for ~15 minutes, then gives up): the
 *   1000 s are compressed. node-1's neighbour entry for the dead pod's address is aged to STALE
 *   (what 15-45 s without confirmation do), cni0's delay_first_probe_time is 1 s (not 5), and
 *   the client's tcp_retries2 is 6 (not 15): the kernel gives up ~25 s after the first
 *   retransmission instead of ~15 minutes. The retransmission count differs; what the client
 *   sees once the kernel gave up (the socket closed, the error its next write reports) is
 *   compared. The wait is bounded (60 s).
 */
async function sleep07(seconds: number, k: KernelSide): Promise<RunResult> {
  const done = { stdout: '', stderr: '', exitCode: 0 };
  const client = k.lab.nsOf({ kind: 'pod', namespace: 'default', name: 'client' })!;
  const node = k.lab.nsOf({ kind: 'node', name: 'node-1' })!;
  if (seconds === 31) {
    await k.follow();
    await new Promise((r) => setTimeout(r, 1000));
    return done;
  }
  expect(seconds).toBe(1000);
  const neigh = sh(['ip', '-n', node, 'neigh', 'show', '10.244.0.4', 'dev', 'cni0']).stdout;
  const mac = /lladdr (\S+)/.exec(neigh)?.[1];
  if (mac !== undefined)
    sh([
      'ip',
      '-n',
      node,
      'neigh',
      'change',
      '10.244.0.4',
      'lladdr',
      mac,
      'dev',
      'cni0',
      'nud',
      'stale',
    ]);
  sh([
    'ip',
    'netns',
    'exec',
    node,
    'sysctl',
    '-qw',
    'net.ipv4.neigh.cni0.delay_first_probe_time=1',
  ]);
  sh(['ip', 'netns', 'exec', client, 'sysctl', '-qw', 'net.ipv4.tcp_retries2=6']);
  expect(await k.flows.waitClosed(client, 'long', 60_000), 'the kernel gave up').toBe(true);
  return done;
}

const reason = clusterNetnsUnavailableReason();
if (reason !== undefined)
  console.log(`skipping the experiments' kernel differential tests (07-08): ${reason}`);

describe.skipIf(reason !== undefined)('experiments on the real kernel', () => {
  it('07 a rolling update under a long TCP connection', async () => {
    const { steps, ctx } = await runExperiment('07-rolling-update-long-tcp', {
      pinDraws: true,
      sleep: sleep07,
    });
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('07', a));
    expect(a.compared).toBe(17);
    // Line 37: both captures show the client's write (win 501 after a second answer, as
    // tcp_select_window() keeps it) and the copy cni0 flooded back to it (hairpin port),
    // already DNATed to the dead pod's port 8080.
    const capture = steps.find((s) => s.line.line === 37)!;
    for (const out of [capture.engine.stdout, capture.real!.stdout]) {
      const lines = out.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/ > 10\.96\.1\.1\.80: Flags \[P\.\]/);
      expect(lines[1]).toMatch(/\.8080: Flags \[P\.\]/);
    }
    expect(a.engineOnly.every((l) => l.includes('$ kubectl '))).toBe(true);
    // Not vacuous: the old connection was answered by the old pod after the rollout, then the
    // kernel closed it; a new one reached a new pod.
    const sends = steps.filter((s) => s.line.command === 'lab flow send long');
    expect(sends[1]!.real!.stdout).toMatch(/^web-6bc869c565-wtj7t \(10\.244\.0\.4:8080\)/);
    expect(sends[4]!.real!.stdout).toMatch(/^web-769dd977b-/);
  }, 90_000);

  it("08 UDP through a pod deletion, before and after kube-proxy's conntrack cleanup", async () => {
    // Real time: `sleep 20`, `sleep 10` and `sleep 1` sleep on the kernel too (conntrack's UDP
    // stream timer, the grace period); kube-proxy's cleanup is replayed with its own filters
    // on the kernel's table (./conntrack-cleanup-replay.ts).
    const { steps, ctx } = await runExperiment('08-udp-conntrack-cleanup', { pinDraws: true });
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('08', a));
    // Everything but kubectl: the flow's sends, the sleeps, conntrack's listings and events.
    expect(a.compared).toBe(15);
    expect(a.engineOnly.every((l) => l.includes('$ kubectl '))).toBe(true);
    // Not vacuous: the cleanup deleted the entry on the kernel, and the flow was re-balanced.
    const events = steps.find((s) => s.line.command.startsWith('conntrack -E'))!.real!;
    expect(events.stdout).toMatch(
      /^\[DESTROY\] udp .* dport=5353 .*\[ASSURED\] \[USERSPACE\] portid=\d+( progname=conntrack)?$/m,
    );
    expect(steps.at(-2)!.real!.stdout).toMatch(/^echo-\S+ \(10\.244\.0\.5:5353\/udp\)/);
  }, 90_000);
});
