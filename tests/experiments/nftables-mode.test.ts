/**
 * Experiments 01 (cross-node ClusterIP), 04 (which source a NodePort backend sees) and 05
 * (externalTrafficPolicy: Local) with kube-proxy in nftables mode: every traffic command of
 * the experiment's script must end as it does in iptables mode — same backend, same source
 * address the backend sees, same failures. Only source ports may differ: MASQUERADE
 * fully-random and the clients' ephemeral ports draw from the lab's seeded random source,
 * which the two modes consume differently (numgen draws once per connection, iptables'
 * statistic match once per rule evaluated).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

const TRAFFIC = /\$ (curl|nc|dig|nslookup) /;

async function run(scenario: string, script: string): Promise<string> {
  let all = '';
  const files: Record<string, string> = { 'scenario.yaml': scenario, 'script.txt': script };
  await main(['run', '--echo', 'scenario.yaml', 'script.txt'], {
    stdout: (t) => (all += t),
    stderr: (t) => (all += t),
    readFile: (path) => files[path],
    readStdin: () => '',
  });
  // Ports chosen at random are masked: "you are 192.168.1.10:16690" → ":PORT".
  return all.replace(/(you are [\d.]+):\d+/g, '$1:PORT');
}

describe('experiments in nftables mode end as in iptables mode', () => {
  it.each(['01-cross-node-clusterip', '04-nodeport-source', '05-external-traffic-policy-local'])(
    '%s',
    async (name) => {
      const scenario = readFileSync(`scenarios/${name}/scenario.yaml`, 'utf8');
      const nft = scenario.replace(/^mode: iptables /m, 'mode: nftables ');
      expect(nft).not.toBe(scenario);
      const script = readFileSync(`scenarios/${name}/script.txt`, 'utf8')
        .split('\n')
        .filter((l) => TRAFFIC.test(l) && !l.trimStart().startsWith('#'))
        .join('\n');
      expect(script).toMatch(TRAFFIC);
      const ipt = await run(scenario, script);
      expect(ipt).toMatch(/you are/);
      expect(await run(nft, script)).toBe(ipt);
      // …and the node really ran the nftables proxier.
      const listed = await run(nft, 'node-1$ nft list chain ip kube-proxy services');
      expect(listed).toContain('ip daddr . meta l4proto . th dport vmap @service-ips');
    },
  );
});
