/**
 * Differential test of experiment 10 (scenarios/10-conntrack-flush): `conntrack -F` under live
 * TCP connections, with nf_conntrack_tcp_loose 1 and 0, on the engine and on a cluster of real
 * network namespaces with real sockets; see ./experiments-a.test.ts for what is compared. The
 * kernel's load-balancing draws are pinned to the engine's (./pin-draw.ts), so a picked-up
 * connection is DNATed to the same pod on both.
 */
import { describe, expect, it } from 'vitest';
import { clusterNetnsUnavailableReason } from './cluster-netns';
import { runExperiment } from './experiment-diff';
import { describeAgreement, expectKernelAgrees } from './kernel-agrees';

const reason = clusterNetnsUnavailableReason();
if (reason !== undefined)
  console.log(`skipping the experiments' kernel differential tests (10): ${reason}`);

describe.skipIf(reason !== undefined)('experiments on the real kernel', () => {
  it('10 conntrack -F under live TCP connections, with and without pick-up', async () => {
    const { steps, ctx } = await runExperiment('10-conntrack-flush', { pinDraws: true });
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('10', a));
    expect(a.compared).toBe(steps.length);
    // Not vacuous: on the kernel too, the picked-up segment was reset by the pod the new draw
    // gave, and without pick-up the segment got no answer.
    const sends = steps.filter((s) => s.line.command.startsWith('lab flow send'));
    expect(sends[1]!.real!.stderr).toContain('Connection reset by peer');
    expect(sends[3]!.real!.stderr).toContain('no answer within 1 s');
  }, 90_000);
});
