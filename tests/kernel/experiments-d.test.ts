/**
 * Differential test of experiment 09 (scenarios/09-ping): the real iputils ping in the pod's
 * namespace against the lab's, through the same rules; see ./experiments-a.test.ts for what is
 * compared. Round-trip times are masked (the lab's wire takes no time); the TTLs, the loss, the
 * conntrack entries (echo identifiers masked) and node-1's capture must agree.
 */
import { describe, expect, it } from 'vitest';
import { clusterNetnsUnavailableReason } from './cluster-netns';
import { runExperiment } from './experiment-diff';
import { describeAgreement, expectKernelAgrees } from './kernel-agrees';

const reason = clusterNetnsUnavailableReason();
if (reason !== undefined)
  console.log(`skipping the experiments' kernel differential tests (09): ${reason}`);

describe.skipIf(reason !== undefined)('experiments on the real kernel', () => {
  it('09 ping: a pod on another node answers, a ClusterIP does not', async () => {
    const { steps, ctx } = await runExperiment('09-ping');
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('09', a));
    expect(a.compared).toBe(steps.length);
    // Not vacuous: the kernel's pod answered across two routers; the ClusterIP did not.
    const pings = steps.filter((s) => s.line.command.startsWith('ping '));
    expect(pings[0]!.real!.stdout).toMatch(/icmp_seq=2 ttl=62 time=/);
    expect(pings[1]!.real!.stdout).toContain('1 packets transmitted, 0 received, 100% packet loss');
  }, 60_000);
});
