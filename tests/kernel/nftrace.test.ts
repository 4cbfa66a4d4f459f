/**
 * Differential test of `-j TRACE` and `xtables-monitor --trace` (netfilter/nftrace.ts): the
 * built-in scenario on real namespaces (./cluster-netns.ts: the engine's rules replayed, its
 * interface names, ifindexes and MACs), a TRACE rule in node-1's raw table, traffic, then the
 * monitor's output on both sides, which must agree line for line once normalised
 * (./normalise.ts normaliseTrace: trace ids by order, ephemeral ports, and the IP ID, DF bit
 * and link-layer header the lab does not model). The kernel's monitor runs from before the
 * script's first line, as the engine's log starts at boot. Load-balancing draws are pinned to
 * the engine's (./pin-draw.ts).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { clusterNetnsUnavailableReason } from './cluster-netns';
import { runExperiment } from './experiment-diff';
import { describeAgreement, expectKernelAgrees } from './kernel-agrees';

const reason = clusterNetnsUnavailableReason();
if (reason !== undefined) console.log(`skipping the TRACE differential tests: ${reason}`);

async function traced(name: string, script: string, pinDraws: boolean) {
  const { steps, ctx } = await runExperiment(
    { name, scenario: DEFAULT_SCENARIO, script },
    { pinDraws },
  );
  const a = expectKernelAgrees(steps, ctx);
  console.log(describeAgreement(name, a));
  const monitor = steps.find((s) => s.line.command.startsWith('xtables-monitor'))!;
  return { a, engine: monitor.engine.stdout, real: monitor.real!.stdout };
}

describe.skipIf(reason !== undefined)('xtables-monitor --trace on the real kernel', () => {
  it('a DNS query bridged on one node, and an HTTP connection to another node', async () => {
    const { a, real } = await traced(
      'trace-clusterip',
      [
        'node-1$ iptables -t raw -I PREROUTING -p udp -d 10.96.0.10 --dport 53 -j TRACE',
        'node-1$ iptables -t raw -A PREROUTING -p tcp -d 10.96.1.1 --dport 80 -j TRACE',
        'pod/client$ dig @10.96.0.10 +short web.default.svc.cluster.local',
        'pod/client$ curl -sS -m 3 http://10.96.1.1/',
        'node-1$ xtables-monitor --trace',
      ].join('\n'),
      true,
    );
    expect(a.compared).toBe(5);
    // Not vacuous: the query's walk through kube-proxy's chains to its DNAT, bridged
    // (br_netfilter: IN=cni0 OUT=cni0), and the connection's packets after the first, which
    // skip the nat table (conntrack) and are accepted by KUBE-FORWARD.
    expect(real).toMatch(/nat:KUBE-SEP-\w+:rule:0x\w+:ACCEPT {2}-4 -t nat -A KUBE-SEP-\w+ -p udp/);
    expect(real).toMatch(/^PACKET: 2 \w+ IN=cni0 OUT=cni0 /m);
    expect(real).toMatch(/filter:KUBE-FORWARD:rule:0x\w+:ACCEPT {2}.*RELATED,ESTABLISHED/);
    expect(real.split('\n').filter((l) => l.startsWith('PACKET:')).length).toBeGreaterThan(10);
  }, 90_000);

  it('a NodePort from outside: the masquerade mark, and the policy of every base chain', async () => {
    // One endpoint, so no draw to pin (pin-draw.ts pins ClusterIP draws only).
    const { a, real } = await traced(
      'trace-nodeport',
      [
        'node-1$ kubectl scale deployment web --replicas=1',
        // Only the connection's first packet (the classic TRACE recipe).
        'node-1$ iptables -t raw -A PREROUTING -p tcp --dport 30080 --syn -j TRACE',
        'laptop$ curl -sS -m 3 http://192.168.1.10:30080/',
        'node-1$ xtables-monitor --trace',
      ].join('\n'),
      false,
    );
    expect(a.compared).toBe(3);
    expect(real).toMatch(/nat:KUBE-MARK-MASQ:rule:0x\w+:CONTINUE {2}.* -j MARK --set-xmark/);
    expect(real).toMatch(/^PACKET: 2 \w+ .* MARK=0x4000 $/m);
    expect(real).toMatch(/nat:KUBE-POSTROUTING:rule:0x\w+:ACCEPT {2}.* -j MASQUERADE/);
    // --syn marked the SYN alone: every PACKET line is the SYN's.
    const packets = real.split('\n').filter((l) => l.startsWith('PACKET:'));
    expect(packets.length).toBeGreaterThan(2);
    expect(packets.every((l) => / DPORT=\d+ SYN (MARK=0x\w+ )?$/.test(l))).toBe(true);
  }, 90_000);
});
