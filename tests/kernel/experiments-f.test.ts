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
import { readExperiment, runExperiment } from './experiment-diff';
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

  it('a limit rule added again starts with a full bucket of its own', async () => {
    // nf_tables allocates a limit expression's state with its rule: the rule deleted and
    // added again is a new rule with a new bucket, whatever the old one had left. At 2/min a
    // token takes 30 s to come back, far longer than the commands between the pings take.
    const rule =
      '-p icmp --icmp-type echo-request -m limit --limit 2/min --limit-burst 1 -j ACCEPT';
    const ping = 'pod/client$ ping -c 1 -W 1 -q 192.168.1.11';
    const script = [
      `node-2$ iptables -I INPUT ${rule}`,
      'node-2$ iptables -I INPUT 2 -p icmp --icmp-type echo-request -j DROP',
      ping,
      ping,
      'node-2$ iptables -D INPUT 1',
      `node-2$ iptables -I INPUT ${rule}`,
      ping,
      'node-2$ iptables -L INPUT 1 -v -n',
    ].join('\n');
    const e = { ...readExperiment('11-own-rules'), name: '11-limit-readded', script };
    const { steps, ctx } = await runExperiment(e);
    const a = expectKernelAgrees(steps, ctx);
    expect(a.compared).toBe(steps.length);
    const pings = steps.filter((s) => s.prompt.includes('ping ')).map((s) => s.real?.stdout ?? '');
    expect(pings.map((p) => /(\d) received/.exec(p)?.[1])).toEqual(['1', '0', '1']);
  }, 60_000);
});
