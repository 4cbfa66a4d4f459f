/**
 * setupNFTables (pkg/proxy/nftables/proxier.go, v1.33): the table, its base chains and
 * top-level chains, the masquerading rules, and the sets and maps the service loop fills. Run on
 * every full sync; everything it creates is flushed and rewritten, so a full sync repairs any
 * change made behind kube-proxy's back.
 */
import type { ElementStorage } from './tx';
import type { Transaction } from './tx';

interface BaseChain {
  readonly name: string;
  readonly type: 'filter' | 'nat';
  readonly hook: string;
  /** knftables writes DNATPriority+"-10" etc. as numbers: dstnat -100, filter 0, srcnat 100. */
  readonly priority: number;
}

/** nftablesBaseChains: filtering runs before DNAT (-110) so it sees the Service IP. */
export const BASE_CHAINS: readonly BaseChain[] = [
  { name: 'filter-prerouting-pre-dnat', type: 'filter', hook: 'prerouting', priority: -110 },
  { name: 'filter-output-pre-dnat', type: 'filter', hook: 'output', priority: -110 },
  { name: 'filter-input', type: 'filter', hook: 'input', priority: 0 },
  { name: 'filter-forward', type: 'filter', hook: 'forward', priority: 0 },
  { name: 'filter-output', type: 'filter', hook: 'output', priority: 0 },
  { name: 'nat-prerouting', type: 'nat', hook: 'prerouting', priority: -100 },
  { name: 'nat-output', type: 'nat', hook: 'output', priority: -100 },
  { name: 'nat-postrouting', type: 'nat', hook: 'postrouting', priority: 100 },
];

/** nftablesJumpChains: [destination, source, extra match]. */
const JUMP_CHAINS: readonly (readonly [string, string, string])[] = [
  ['nodeport-endpoints-check', 'filter-input', 'ct state new'],
  ['service-endpoints-check', 'filter-input', 'ct state new'],
  ['service-endpoints-check', 'filter-forward', 'ct state new'],
  ['service-endpoints-check', 'filter-output', 'ct state new'],
  ['firewall-check', 'filter-prerouting-pre-dnat', 'ct state new'],
  ['firewall-check', 'filter-output-pre-dnat', 'ct state new'],
  ['services', 'nat-output', ''],
  ['services', 'nat-prerouting', ''],
  ['masquerading', 'nat-postrouting', ''],
  ['cluster-ips-check', 'filter-forward', 'ct state new'],
  ['cluster-ips-check', 'filter-output', 'ct state new'],
];

export interface Containers {
  readonly clusterIPs: ElementStorage;
  readonly serviceIPs: ElementStorage;
  readonly firewallIPs: ElementStorage;
  readonly noEndpointServices: ElementStorage;
  readonly noEndpointNodePorts: ElementStorage;
  readonly serviceNodePorts: ElementStorage;
}

export interface SetupEnv {
  readonly mark: string;
  /** First sync of this kube-proxy: base chains are added and deleted once to recreate them. */
  readonly firstSync: boolean;
  readonly matchAll: boolean;
  /** The node IPs NodePorts accept (nodePortAddresses), loopback ones left out. */
  readonly nodePortIPs: readonly string[];
  /** The service CIDRs, comma separated. */
  readonly serviceCIDRs: string;
}

/** ensureChain: add + flush once per transaction. */
export function ensureChain(tx: Transaction, created: Set<string>, chain: string): void {
  if (created.has(chain)) return;
  created.add(chain);
  tx.addChain(chain);
  tx.flushChain(chain);
}

export function setupNFTables(tx: Transaction, env: SetupEnv, c: Containers): void {
  tx.addTable('rules for kube-proxy');
  if (env.firstSync) {
    // "Do an extra add+delete once to ensure all previous base chains in the table will be
    // recreated. Otherwise, altering properties (e.g. priority) of these chains would fail."
    for (const bc of BASE_CHAINS) {
      tx.addChain(bc.name);
      tx.deleteChain(bc.name);
    }
  }
  for (const bc of BASE_CHAINS) {
    tx.addChain(bc.name, { base: bc });
    tx.flushChain(bc.name);
  }
  const created = new Set<string>();
  for (const [dst, src, extra] of JUMP_CHAINS) {
    ensureChain(tx, created, dst);
    tx.addRule(src, `${extra === '' ? '' : `${extra} `}jump ${dst}`);
  }
  for (const chain of ['services', 'cluster-ips-check', 'masquerading', 'mark-for-masquerade'])
    ensureChain(tx, created, chain);

  tx.addRule('mark-for-masquerade', `mark set mark or ${env.mark}`);
  tx.addRule('masquerading', `mark and ${env.mark} == 0 return`);
  tx.addRule('masquerading', `mark set mark xor ${env.mark}`);
  tx.addRule('masquerading', 'masquerade fully-random');

  tx.addSet('set', 'cluster-ips', 'ipv4_addr', { comment: 'Active ClusterIPs' });
  tx.addRule(
    'cluster-ips-check',
    'ip daddr @cluster-ips reject',
    'Reject traffic to invalid ports of ClusterIPs',
  );
  if (env.serviceCIDRs !== '') {
    tx.addRule(
      'cluster-ips-check',
      `ip daddr { ${env.serviceCIDRs} } drop`,
      'Drop traffic to unallocated ClusterIPs',
    );
  }

  // nodeport-ips is added and then deleted when NodePorts match every address ("add+delete
  // rather than just delete … because doing just delete would return an error").
  tx.addSet('set', 'nodeport-ips', 'ipv4_addr', { comment: 'IPs that accept NodePort traffic' });
  if (env.matchAll) tx.deleteSet('set', 'nodeport-ips');
  else {
    tx.flushSet('set', 'nodeport-ips');
    for (const ip of env.nodePortIPs) tx.addElement('nodeport-ips', { key: [ip] });
  }

  tx.addSet('map', 'no-endpoint-services', 'ipv4_addr . inet_proto . inet_service : verdict', {
    comment: 'vmap to drop or reject packets to services with no endpoints',
  });
  tx.addSet('map', 'no-endpoint-nodeports', 'inet_proto . inet_service : verdict', {
    comment: 'vmap to drop or reject packets to service nodeports with no endpoints',
  });
  tx.addChain('reject-chain', {
    comment: 'helper for @no-endpoint-services / @no-endpoint-nodeports',
  });
  tx.flushChain('reject-chain');
  tx.addRule('reject-chain', 'reject');
  tx.addRule(
    'service-endpoints-check',
    'ip daddr . meta l4proto . th dport vmap @no-endpoint-services',
  );
  tx.addRule(
    'nodeport-endpoints-check',
    env.matchAll
      ? 'ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @no-endpoint-nodeports'
      : 'ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports',
  );

  tx.addSet('map', 'firewall-ips', 'ipv4_addr . inet_proto . inet_service : verdict', {
    comment: 'destinations that are subject to LoadBalancerSourceRanges',
  });
  ensureChain(tx, created, 'firewall-check');
  tx.addRule('firewall-check', 'ip daddr . meta l4proto . th dport vmap @firewall-ips');

  tx.addSet('map', 'service-ips', 'ipv4_addr . inet_proto . inet_service : verdict', {
    comment: 'ClusterIP, ExternalIP and LoadBalancer IP traffic',
  });
  tx.addSet('map', 'service-nodeports', 'inet_proto . inet_service : verdict', {
    comment: 'NodePort traffic',
  });
  tx.addRule('services', 'ip daddr . meta l4proto . th dport vmap @service-ips');
  tx.addRule(
    'services',
    env.matchAll
      ? 'fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @service-nodeports'
      : 'ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports',
  );

  for (const s of Object.values(c) as ElementStorage[]) s.reset(tx);
}
