/**
 * Differential test of experiment 11 (scenarios/11-own-rules): a learner's own iptables rules
 * beside kube-proxy's — the icmp match dropping echo requests in FORWARD, the state match
 * rejecting new connections to a pod while its own connections' replies get in, REDIRECT
 * sending node-1's port 80 to a hostNetwork pod's port 9100, NOTRACK keeping a connection to a
 * ClusterIP from conntrack and so from kube-proxy's DNAT, a limit match answering every other
 * ping — on real namespaces with the real
 * tools; see ./experiments-a.test.ts for what is compared.
 */
import { describe, expect, it } from 'vitest';
import { clusterNetnsUnavailableReason } from './cluster-netns';
import { runExperiment } from './experiment-diff';
import { describeAgreement, expectKernelAgrees } from './kernel-agrees';

const reason = clusterNetnsUnavailableReason();
if (reason !== undefined)
  console.log(`skipping the experiments' kernel differential tests (11): ${reason}`);

describe.skipIf(reason !== undefined)('experiments on the real kernel', () => {
  it('11 own rules: icmp, state, REDIRECT, NOTRACK and limit as the kernel runs them', async () => {
    const { steps, ctx } = await runExperiment('11-own-rules');
    const a = expectKernelAgrees(steps, ctx);
    console.log(describeAgreement('11', a));
    expect(a.compared).toBe(steps.length);
    // Not vacuous: the kernel dropped the echo request, rejected the new connection to web-1,
    // let web-1's own connection through and answered the laptop from port 9100.
    const real = (needle: string): string[] =>
      steps.filter((s) => s.prompt.includes(needle)).map((s) => s.real?.stdout ?? '');
    expect(real('ping ')[1]).toContain('1 packets transmitted, 0 received, 100% packet loss');
    expect(real('pod/web-1$ curl')[0]).toMatch(/^web-2 \(10\.244\.1\.2:8080\): you are 10\.244\.0\.4:/); // prettier-ignore
    expect(real('laptop$ curl')[0]).toMatch(/^node-1 \(192\.168\.1\.10:9100\): you are 192\.168\.1\.100:/); // prettier-ignore
    expect(real('--orig-port-dst 80')[0]).toMatch(/dport=80 src=192\.168\.1\.10 .* sport=9100 /);
    expect(real('conntrack -L -d 10.96.1.10')[0]).toBe('');
    expect(real('iptables -t raw -L PREROUTING')[0]).toMatch(/\n +2 +120 CT .* NOTRACK\n$/);
    expect(real('ping -c 6')[0]).toContain('6 packets transmitted, 3 received, 50% packet loss');
  }, 60_000);
});
