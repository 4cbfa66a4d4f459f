/**
 * Differential tests of experiments 01–03 (scenarios/): each runs on the engine and on a cluster
 * of real network namespaces with real sockets (./experiment-diff.ts, ./cluster-netns.ts); the
 * outcome of every command, the answering pod, the source the server saw and the conntrack
 * entries (ports and timers normalised) must be the kernel's (./kernel-agrees.ts).
 */
import { describe, expect, it } from 'vitest';
import { clusterNetnsUnavailableReason } from './cluster-netns';
import { runExperiment } from './experiment-diff';
import { describeAgreement, expectKernelAgrees } from './kernel-agrees';

const reason = clusterNetnsUnavailableReason();
if (reason !== undefined)
  console.log(`skipping the experiments' kernel differential tests (01-03): ${reason}`);

describe.skipIf(reason !== undefined)('experiments on the real kernel', () => {
  it('01 cross-node ClusterIP', async () => {
    const { steps, ctx } = await runExperiment('01-cross-node-clusterip');
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('01', a));
    expect(a.compared).toBe(5);
  });

  it('02 same-node ClusterIP with bridge-nf-call-iptables 1 and 0', async () => {
    const { steps, ctx } = await runExperiment('02-same-node-bridge-nf');
    const a = expectKernelAgrees(steps, ctx, {
      // One [UNREPLIED] entry per connection that timed out (those that drew web-1).
      selfCheck: (step, out, lastRun) => {
        if (!step.line.command.includes('grep -c UNREPLIED')) return false;
        expect(out.stdout).toBe(`${lastRun.filter((o) => o === 'timeout').length}\n`);
        return true;
      },
    });
    console.log(describeAgreement('02', a));
    // Both sysctl values, the UDP variant and the mixed run reached the kernel.
    expect(a.runs).toHaveLength(1);
    expect(a.compared).toBe(32);
  });

  it('03 hairpin: bridge-nf 0/1 x hairpin flag on/off x masquerade rule kept/removed', async () => {
    const { steps, ctx } = await runExperiment('03-hairpin');
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('03', a));
    expect(
      steps.filter((s) => s.real !== undefined && s.line.command.startsWith('curl')),
    ).toHaveLength(9);
  });
});
