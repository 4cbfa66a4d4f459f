/**
 * Service shapes beyond TestOverallNFTablesRules, as pkg/proxy/nftables/proxier.go writes them
 * (v1.33): eTP Local with a local endpoint (`local-…` chain, the external chain ends in
 * `goto local-…`), iTP Local without local endpoints (the ClusterIP is dropped), source ranges
 * that contain the node IP (the LB IPs are allowed too), masqueradeAll, and the built-in
 * scenario's kube-dns.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../model/cluster';
import { DEFAULT_SCENARIO, loadScenario } from '../../scenario';
import { nftHashAndTruncate } from '../hash';
import {
  cluster,
  endpoint,
  kubeProxyConfig,
  port,
  service,
  slice,
  TEST_NODE,
} from '../testing/fixtures';
import { fakeDump } from '../testing/nft-dump';
import { createNftablesProxier } from './proxier';

function dump(c: Cluster, nodeIP = '192.168.0.2', nodeName = TEST_NODE): string[] {
  const p = createNftablesProxier({
    nodeName,
    nodeIPs: [nodeIP],
    podCIDR: '10.0.0.0/24',
    config: c.kubeProxy,
    serviceCIDRs: c.lab.serviceCIDR,
  });
  return fakeDump([p.sync(c, { now: 0 }).transaction]);
}

const h = (name: string) => nftHashAndTruncate(name);

describe('nftables service shapes', () => {
  const c = cluster(
    [
      service('ns1', 'local', '172.30.0.41', {
        type: 'NodePort',
        externalTrafficPolicy: 'Local',
        ports: [port('p80', 80, { nodePort: 3001 })],
      }),
      service('ns2', 'itp', '172.30.0.42', { internalTrafficPolicy: 'Local' }),
      service('ns3', 'lb', '172.30.0.43', {
        type: 'LoadBalancer',
        ports: [port('p80', 80, { nodePort: 3003 })],
        loadBalancerIngress: [{ ip: '1.2.3.4' }],
        loadBalancerSourceRanges: ['192.168.0.0/24', '203.0.113.0/25'],
      }),
    ],
    [
      slice('ns1', 'local', [
        endpoint('10.180.0.1', { node: TEST_NODE }),
        endpoint('10.180.0.2', { node: 'other' }),
      ]),
      slice('ns2', 'itp', [endpoint('10.180.0.3', { node: 'other' })]),
      slice('ns3', 'lb', [endpoint('10.180.0.4')]),
    ],
    kubeProxyConfig({ mode: 'nftables' }),
  );
  const lines = dump(c);
  const local = h('ns1/local/tcp/p80');

  it('eTP Local: local- chain over the local endpoint, external- short circuits then goes there', () => {
    expect(lines).toContain(
      `add rule ip kube-proxy local-${local} numgen random mod 1 vmap { 0 : goto endpoint-${h('ns1/local/tcp/p80__10.180.0.1/80')} }`,
    );
    expect(lines.filter((l) => l.startsWith(`add rule ip kube-proxy external-${local} `))).toEqual([
      `add rule ip kube-proxy external-${local} ip saddr 10.0.0.0/8 goto service-${local} comment "short-circuit pod traffic"`,
      `add rule ip kube-proxy external-${local} fib saddr type local jump mark-for-masquerade comment "masquerade local traffic"`,
      `add rule ip kube-proxy external-${local} fib saddr type local goto service-${local} comment "short-circuit local traffic"`,
      `add rule ip kube-proxy external-${local} goto local-${local}`,
    ]);
    expect(lines).toContain(
      `add element ip kube-proxy service-nodeports { tcp . 3001 : goto external-${local} }`,
    );
  });

  it('iTP Local without a local endpoint: the ClusterIP is dropped, no chains', () => {
    expect(lines).toContain(
      'add element ip kube-proxy no-endpoint-services { 172.30.0.42 . tcp . 80 comment "ns2/itp:p80" : drop }',
    );
    expect(lines.some((l) => l.includes('ns2/itp/tcp/p80 '))).toBe(false);
  });

  it('source ranges containing the node IP also allow the LB IP (traffic looping back from the node)', () => {
    expect(lines).toContain(
      `add rule ip kube-proxy firewall-${h('ns3/lb/tcp/p80')} ip saddr != { 192.168.0.0/24 , 203.0.113.0/25 , 1.2.3.4 } drop`,
    );
  });

  it('masqueradeAll masquerades every ClusterIP packet, by destination and port', () => {
    const all = dump({
      ...c,
      kubeProxy: kubeProxyConfig({ mode: 'nftables', masqueradeAll: true }),
    });
    expect(all).toContain(
      `add rule ip kube-proxy service-${h('ns3/lb/tcp/p80')} ip daddr 172.30.0.43 tcp dport 80 jump mark-for-masquerade`,
    );
  });
});

describe('the built-in scenario in nftables mode', () => {
  it("programs kube-dns's three ports into service-ips, each to its service chain", () => {
    const { cluster: c } = loadScenario(DEFAULT_SCENARIO);
    const node = c.nodes[0]!;
    const lines = dump(
      { ...c, kubeProxy: { ...c.kubeProxy, mode: 'nftables' } },
      node.internalIP,
      node.meta.name,
    );
    for (const [proto, name, port] of [
      ['udp', 'dns', 53],
      ['tcp', 'dns-tcp', 53],
      ['tcp', 'metrics', 9153],
    ] as const) {
      expect(lines).toContain(
        `add element ip kube-proxy service-ips { 10.96.0.10 . ${proto} . ${port} : goto service-${h(`kube-system/kube-dns/${proto}/${name}`)} }`,
      );
    }
    expect(lines).toContain('add element ip kube-proxy cluster-ips { 10.96.0.10 }');
    // No nodePortAddresses: every local address but 127.0.0.0/8 accepts NodePorts.
    expect(lines).toContain(
      'add rule ip kube-proxy services fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @service-nodeports',
    );
    expect(lines.some((l) => l.startsWith('add set ip kube-proxy nodeport-ips'))).toBe(false);
  });
});
