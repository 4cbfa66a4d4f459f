/**
 * The experiments with kube-proxy in nftables mode (the scenario's KubeProxyConfiguration
 * switched to `mode: nftables`), where they make sense: 01 (cross-node ClusterIP), 02 (the
 * same-node bridge problem), 04 (which source a NodePort backend sees), 05
 * (externalTrafficPolicy: Local) and 06 (load distribution). The whole script runs; every
 * traffic command (curl, nc, dig, nslookup) must end as in iptables mode: same backend, same
 * source address the backend sees, same failures. Only source ports may differ: MASQUERADE
 * fully-random and the clients' ephemeral ports draw from the lab's seeded random source, which
 * the two modes consume differently (numgen draws once per connection, iptables' statistic
 * match once per rule evaluated) — for the same reason 06's 300 connections are only checked
 * to spread evenly. 03 (hairpin) deletes an iptables KUBE-SEP rule, which nftables mode does
 * not have.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

const PROMPT = /^(?:node-\d+|pod\/[\w./-]+|laptop)\$ /;
const TRAFFIC = /\$ (curl|nc|dig|nslookup) /;

/** The outputs of the script's traffic commands, random ports masked. */
async function trafficOutputs(scenario: string, script: string): Promise<string[]> {
  let all = '';
  const files: Record<string, string> = { 'scenario.yaml': scenario, 'script.txt': script };
  await main(['run', '--echo', 'scenario.yaml', 'script.txt'], {
    stdout: (t) => (all += t),
    stderr: (t) => (all += t),
    readFile: (path) => files[path],
    readStdin: () => '',
  });
  const blocks: { line: string; text: string }[] = [];
  for (const l of all.split('\n')) {
    if (PROMPT.test(l)) blocks.push({ line: l, text: '' });
    else if (blocks.length > 0) blocks[blocks.length - 1]!.text += `${l}\n`;
  }
  return blocks
    .filter((b) => TRAFFIC.test(b.line))
    .map((b) => `${b.line}\n${b.text}`.replace(/(you are [\d.]+):\d+/g, '$1:PORT'));
}

function read(name: string): { ipt: string; nft: string; script: string } {
  const ipt = readFileSync(`scenarios/${name}/scenario.yaml`, 'utf8');
  const nft = ipt.replace(/^mode: iptables /m, 'mode: nftables ');
  expect(nft).not.toBe(ipt);
  return { ipt, nft, script: readFileSync(`scenarios/${name}/script.txt`, 'utf8') };
}

describe('experiments in nftables mode end as in iptables mode', () => {
  it.each(['01-cross-node-clusterip', '04-nodeport-source', '05-external-traffic-policy-local'])(
    '%s',
    async (name) => {
      const { ipt, nft, script } = read(name);
      const expected = await trafficOutputs(ipt, script);
      expect(expected.length).toBeGreaterThan(0);
      expect(await trafficOutputs(nft, script)).toEqual(expected);
      // …and the nodes really ran the nftables proxier.
      let out = '';
      await main(['run', 'scenario.yaml'], {
        stdout: (t) => (out += t),
        stderr: (t) => (out += t),
        readFile: () => nft,
        readStdin: () => 'node-1$ nft list chain ip kube-proxy services\n',
      });
      expect(out).toContain('ip daddr . meta l4proto . th dport vmap @service-ips');
    },
  );

  it('02-same-node-bridge-nf: the same outcomes (which connection meets which pod is random)', async () => {
    const { ipt, nft, script } = read('02-same-node-bridge-nf');
    const distinct = (outs: string[]) => [...new Set(outs)].sort();
    const expected = await trafficOutputs(ipt, script);
    const got = await trafficOutputs(nft, script);
    expect(got).toHaveLength(expected.length);
    // The first curl (bridge-nf-call-iptables=1) works in both modes; with 0, connections DNATed
    // to the client's own node time out, the others answer — in both modes.
    expect(got[0]).toBe(expected[0]);
    expect(distinct(got)).toEqual(distinct(expected));
    expect(got.some((o) => o.includes('timed out'))).toBe(true);
  });

  it('06-load-distribution: numgen spreads 300 connections evenly over the three pods', async () => {
    const { nft, script } = read('06-load-distribution');
    const curls = (await trafficOutputs(nft, script)).filter((o) => o.includes('$ curl'));
    expect(curls).toHaveLength(300);
    const counts = ['web-1', 'web-2', 'web-3'].map(
      (pod) => curls.filter((o) => o.split('\n')[1]?.startsWith(`${pod} `)).length,
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(300);
    // Binomial(300, 1/3): mean 100, standard deviation ≈ 8.2; 70..130 is beyond 3.5 sigma.
    for (const c of counts) {
      expect(c).toBeGreaterThanOrEqual(70);
      expect(c).toBeLessThanOrEqual(130);
    }
  });
});
