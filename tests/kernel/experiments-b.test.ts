/**
 * Differential tests of experiments 04–06 (scenarios/) against a cluster of real network
 * namespaces with real sockets; see ./experiments-a.test.ts for what is compared.
 */
import { describe, expect, it } from 'vitest';
import { clusterNetnsUnavailableReason } from './cluster-netns';
import { readdirSync, readFileSync } from 'node:fs';
import { readExperiment, runExperiment } from './experiment-diff';
import { describeAgreement, expectKernelAgrees } from './kernel-agrees';

const reason = clusterNetnsUnavailableReason();
if (reason !== undefined)
  console.log(`skipping the experiments' kernel differential tests (04-06): ${reason}`);

/** The experiments run on the kernel (./experiments-a.test.ts, this file, ./experiments-c.test.ts, ./experiments-d.test.ts, ./experiments-e.test.ts, ./experiments-f.test.ts). */
const ON_THE_KERNEL = [
  '01-cross-node-clusterip',
  '02-same-node-bridge-nf',
  '03-hairpin',
  '04-nodeport-source',
  '05-external-traffic-policy-local',
  '06-load-distribution',
  '07-rolling-update-long-tcp',
  '08-udp-conntrack-cleanup',
  '09-ping',
  '10-conntrack-flush',
  '11-own-rules',
];
it('every experiment runs on the kernel', () => {
  const folders = readdirSync(new URL('../../scenarios', import.meta.url), {
    withFileTypes: true,
  })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  expect(folders).toEqual([...ON_THE_KERNEL].sort());
});

describe.skipIf(reason !== undefined)('experiments on the real kernel', () => {
  it('04 NodePort from outside: the source the pod sees', async () => {
    const { steps, ctx } = await runExperiment('04-nodeport-source');
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('04', a));
    expect(a.compared).toBe(7);
  });

  it('05 externalTrafficPolicy: Local', async () => {
    const { steps, ctx } = await runExperiment('05-external-traffic-policy-local');
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('05', a));
    expect(a.compared).toBe(steps.length);
  });

  it('06 load distribution: every endpoint answers, nothing else', async () => {
    const { steps, ctx } = await runExperiment('06-load-distribution');
    const a = expectKernelAgrees(steps, ctx, {
      // conntrack counts one entry per connection, by the endpoint that answered.
      selfCheck: (step, out, lastRun) => {
        const m = /grep -c 'src=(\S+) dst=/.exec(step.line.command);
        if (m === null) return false;
        const pod = lastRun.filter((o) => o.includes(` at ${m[1]}:`)).length;
        expect(pod).toBeGreaterThan(0);
        expect(out.stdout).toBe(`${pod}\n`);
        return true;
      },
    });
    console.log(describeAgreement('06', a));
    expect(a.runs).toHaveLength(1);
    expect(Object.keys(a.runs[0]!.real)).toHaveLength(3);
  });

  it('a fourth endpoint joins under traffic (kubectl apply): the partial sync and the new pod', async () => {
    // Experiment 06's cluster; the script applies tests/kernel/fixtures/scale-out/web-4.yaml.
    const e = {
      ...readExperiment('06-load-distribution'),
      name: 'scale-out',
      script: readFileSync(new URL('./fixtures/scale-out/script.txt', import.meta.url), 'utf8'),
    };
    const { steps, ctx } = await runExperiment(e);
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('scale-out', a));
    // Before: three pods answer; after: four, the new one included, on both sides.
    expect(a.runs.map((r) => Object.keys(r.real).length)).toEqual([3, 4]);
    expect(a.engineOnly).toHaveLength(2);
  });
});
