/**
 * Differential tests of experiments 07 and 08 (scenarios/): long-lived flows (`lab flow`) on
 * real sockets (./kernel-flows.ts) through a rolling update and a pod deletion; see
 * ./experiments-a.test.ts for what is compared. Both pin the kernel's load-balancing draws to
 * the engine's (./pin-draw.ts): their later steps depend on which pod a flow reached.
 */
import { describe, expect, it } from 'vitest';
import { clusterNetnsUnavailableReason } from './cluster-netns';
import { runExperiment } from './experiment-diff';
import { describeAgreement, expectKernelAgrees } from './kernel-agrees';

const reason = clusterNetnsUnavailableReason();
if (reason !== undefined)
  console.log(`skipping the experiments' kernel differential tests (07-08): ${reason}`);

describe.skipIf(reason !== undefined)('experiments on the real kernel', () => {
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
