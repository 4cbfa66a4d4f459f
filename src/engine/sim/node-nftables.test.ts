/**
 * kube-proxy in nftables mode across a restart: the new process lists the table its
 * predecessor left, flushes the chains no Service uses any more, deletes unused affinity sets
 * at once and the flushed chains a second later; CleanupLeftovers deletes the table.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster, ClusterNode } from '../model/cluster';
import {
  cluster,
  endpoint,
  kubeProxyConfig,
  meta,
  service,
  slice,
} from '../kube-proxy/testing/fixtures';
import { nftCommand } from '../nftables';
import { bootNodeNftables, cleanupNodeNftables, syncNodeNftables } from './node-nftables';

const NODE: ClusterNode = {
  meta: meta('', 'node-1'),
  podCIDR: '10.244.0.0/24',
  addresses: [{ type: 'InternalIP', address: '192.168.1.10' }],
  internalIP: '192.168.1.10',
};

function withSticky(sticky: boolean): Cluster {
  const c = cluster(
    [
      service('default', 'web', '172.30.0.20'),
      ...(sticky
        ? [service('default', 'sticky', '172.30.0.24', { sessionAffinity: 'ClientIP' })]
        : []),
    ],
    [
      slice('default', 'web', [endpoint('10.244.0.4')]),
      ...(sticky ? [slice('default', 'sticky', [endpoint('10.244.0.5')])] : []),
    ],
    kubeProxyConfig({ mode: 'nftables' }),
  );
  return { ...c, nodes: [NODE] };
}

const chains = (out: string) => [...out.matchAll(/^\tchain (\S+) \{$/gm)].map((m) => m[1]);

describe('kube-proxy (nftables mode) restarted on a node', () => {
  const first = bootNodeNftables(NODE, withSticky(true));
  syncNodeNftables(first, withSticky(true), 0);
  // A new kube-proxy process on the same kernel, after `sticky` was deleted.
  const second = { ...bootNodeNftables(NODE, withSticky(false)), state: first.state };
  const r = syncNodeNftables(second, withSticky(false), 5_000);

  it('flushes the chains its predecessor left for sticky and deletes its affinity set', () => {
    expect(r.full).toBe(true);
    expect(second.lastError).toBe('');
    expect(r.chainsFlushed.some((c) => c.includes('default/sticky/'))).toBe(true);
    expect(r.transaction).toMatch(/^delete set ip kube-proxy affinity-\S+default\/sticky\//m);
  });

  it('deletes the flushed chains a second later', () => {
    const later = syncNodeNftables(second, withSticky(false), 7_000);
    expect(later.chainsDeleted).toEqual(r.chainsFlushed);
    expect(second.lastError).toBe('');
    const listed = nftCommand(second.state, ['list', 'chains'], 7_000).stdout;
    expect(chains(listed).filter((c) => c?.includes('sticky'))).toEqual([]);
  });

  it('CleanupLeftovers deletes the table; a second run finds nothing and is not an error', () => {
    expect(cleanupNodeNftables(second.state, 8_000)).toBe(true);
    expect(nftCommand(second.state, ['list', 'ruleset'], 8_000).stdout).toBe('');
    expect(cleanupNodeNftables(second.state, 8_000)).toBe(false);
  });
});
