/**
 * Partial syncs as kube-proxy's TestSyncProxyRulesRepeated (pkg/proxy/nftables/proxier_test.go,
 * v1.33+) checks them: the dump after each change and the number of operations of the last
 * transaction ("add+flush 3 chains for 1 service and 2 endpoints, add 2 rules in each = 12
 * operations"; emptying a service's endpoints is "remove 1 element from service-ips, add 1
 * element to no-endpoint-services = 2 operations, flush 3 chains = 3 operations"; restoring
 * them at once is 14; a sync without changes is 0). Stale chains are deleted a second later.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../model/cluster';
import { cluster, endpoint, kubeProxyConfig, service, slice, TEST_NODE } from '../testing/fixtures';
import { fakeDump } from '../testing/nft-dump';
import { createNftablesProxier } from './proxier';

const svc3Chains = [
  'service-4AT6LBPK-ns3/svc3/tcp/p80',
  'endpoint-SWWHDC7X-ns3/svc3/tcp/p80__10.0.3.2/80',
  'endpoint-TQ2QKHCZ-ns3/svc3/tcp/p80__10.0.3.3/80',
];

function withSvc3(eps: readonly string[]): Cluster {
  return cluster(
    [
      service('ns1', 'svc1', '172.30.0.41'),
      service('ns3', 'svc3', '172.30.0.43'),
      service('ns4', 'svc4', '172.30.0.44'),
    ],
    [
      slice('ns1', 'svc1', [endpoint('10.0.1.1')]),
      slice(
        'ns3',
        'svc3',
        eps.map((ip) => endpoint(ip)),
      ),
      slice('ns4', 'svc4', [endpoint('10.0.4.1')]),
    ],
    kubeProxyConfig({ mode: 'nftables', nodePortAddresses: ['192.168.0.2/32'] }),
  );
}

const ops = (tx: string) => (tx === '' ? 0 : tx.trimEnd().split('\n').length);

describe('TestSyncProxyRulesRepeated (kube-proxy v1.33 proxier_test.go)', () => {
  const p = createNftablesProxier({
    nodeName: TEST_NODE,
    nodeIPs: ['192.168.0.2'],
    podCIDR: '10.0.0.0/24',
    config: withSvc3([]).kubeProxy,
    serviceCIDRs: '172.30.0.0/16',
  });
  const all: string[] = [];
  const sync = (c: Cluster, now: number) => {
    const r = p.sync(c, { now });
    all.push(r.staleChainsTransaction, r.transaction);
    return r;
  };
  const two = withSvc3(['10.0.3.2', '10.0.3.3']);
  const none = withSvc3([]);

  it('adding an endpoint rewrites only that service: 12 operations', () => {
    sync(withSvc3(['10.0.3.2']), 0);
    const r = sync(two, 100);
    expect(r.full).toBe(false);
    expect(ops(r.transaction)).toBe(12);
    expect(fakeDump(all)).toContain(
      'add rule ip kube-proxy service-4AT6LBPK-ns3/svc3/tcp/p80 numgen random mod 2 vmap { 0 : goto endpoint-SWWHDC7X-ns3/svc3/tcp/p80__10.0.3.2/80 , 1 : goto endpoint-TQ2QKHCZ-ns3/svc3/tcp/p80__10.0.3.3/80 }',
    );
  });

  it('emptying its endpoints: 2 element operations and 3 chains flushed, not deleted', () => {
    const r = sync(none, 200);
    expect(ops(r.transaction)).toBe(5);
    expect(r.chainsFlushed).toEqual([...svc3Chains].sort());
    const dump = fakeDump(all);
    expect(dump).toContain(
      'add element ip kube-proxy no-endpoint-services { 172.30.0.43 . tcp . 80 comment "ns3/svc3:p80" : goto reject-chain }',
    );
    for (const c of svc3Chains) expect(dump).toContain(`add chain ip kube-proxy ${c}`);
  });

  it('restoring them at once: 14 operations, nothing stale any more', () => {
    const r = sync(two, 300);
    expect(ops(r.transaction)).toBe(14);
    const later = sync(two, 5000);
    expect(later.staleChainsTransaction).toBe('');
    expect(ops(later.transaction)).toBe(0);
  });

  it('emptied and restored after the chains aged: deleted first, then recreated', () => {
    sync(none, 6000);
    const r = sync(two, 8000);
    expect(r.chainsDeleted).toEqual([...svc3Chains].sort());
    expect(r.staleChainsTransaction).toBe(
      [...svc3Chains]
        .sort()
        .map((c) => `delete chain ip kube-proxy ${c}\n`)
        .join(''),
    );
    for (const c of svc3Chains) expect(r.transaction).toContain(`add chain ip kube-proxy ${c}\n`);
    expect(ops(sync(two, 9000).transaction)).toBe(0);
  });
});
