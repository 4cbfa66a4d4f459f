/**
 * /etc/resolv.conf and the search list, as kubelet writes it and as resolvers walk it.
 *
 * kubelet (dnsPolicy ClusterFirst) gives every pod `nameserver <kube-dns ClusterIP>`,
 * `search <ns>.svc.cluster.local svc.cluster.local cluster.local` and `options ndots:5`.
 * hostNetwork pods (ClusterFirst falls back to Default) and nodes use the node's own resolv.conf:
 * in the lab a Debian VM that got `nameserver <LAN gateway>` from DHCP, which knows no cluster name.
 */
import type { Cluster } from '../../model/cluster';
import type { HostRef } from '../../routing/topology';
import { lanOf } from '../../routing/topology';
import { CLUSTER_DOMAIN } from './coredns';
import { fqdn } from './message';

export interface ResolvConf {
  readonly nameservers: readonly string[];
  readonly search: readonly string[];
  readonly ndots: number;
  /** options timeout: (glibc default 5 s) and attempts: (default 2). */
  readonly timeoutSec: number;
  readonly attempts: number;
}

/** The ClusterIP of kube-system/kube-dns (kubelet's clusterDNS), 10.96.0.10 when absent. */
export function clusterDnsIp(cluster: Cluster): string {
  const svc = cluster.services.find(
    (s) => s.meta.namespace === 'kube-system' && s.meta.name === 'kube-dns',
  );
  return svc !== undefined && svc.clusterIP !== '' && svc.clusterIP !== 'None'
    ? svc.clusterIP
    : '10.96.0.10';
}

/** The resolv.conf a host sees. */
export function resolvConfFor(cluster: Cluster, host: HostRef): ResolvConf {
  const defaults = { timeoutSec: 5, attempts: 2 };
  if (host.kind === 'pod') {
    const pod = cluster.pods.find(
      (p) => p.meta.namespace === host.namespace && p.meta.name === host.name,
    );
    if (pod !== undefined && !pod.hostNetwork)
      return {
        ...defaults,
        nameservers: [clusterDnsIp(cluster)],
        search: [
          `${host.namespace}.svc.${CLUSTER_DOMAIN}`,
          `svc.${CLUSTER_DOMAIN}`,
          CLUSTER_DOMAIN,
        ],
        ndots: 5,
      };
  }
  const ip =
    host.kind === 'external'
      ? cluster.lab.externalClients.find((c) => c.name === host.name)?.address
      : cluster.nodes.find(
          (n) =>
            n.meta.name ===
            (host.kind === 'node'
              ? host.name
              : cluster.pods.find((p) => p.meta.name === host.name)?.nodeName),
        )?.internalIP;
  return {
    ...defaults,
    nameservers: ip === undefined ? [] : [lanOf(ip).gateway],
    search: [],
    ndots: 1,
  };
}

/** The file's text, as `cat /etc/resolv.conf` prints it in a pod. */
export function resolvConfText(conf: ResolvConf): string {
  const lines = [
    ...(conf.search.length > 0 ? [`search ${conf.search.join(' ')}`] : []),
    ...conf.nameservers.map((n) => `nameserver ${n}`),
    ...(conf.ndots !== 1 ? [`options ndots:${conf.ndots}`] : []),
  ];
  return lines.map((l) => `${l}\n`).join('');
}

/**
 * The names a resolver tries, in order (glibc res_nsearch, BIND's dighost next_origin): a name
 * with a trailing dot as is; one with at least ndots dots as is, then with each search domain;
 * otherwise each search domain first and the name as is last.
 */
export function searchCandidates(name: string, conf: ResolvConf): string[] {
  if (name.endsWith('.')) return [name];
  const dots = name.split('.').length - 1;
  const searched = conf.search.map((d) => fqdn(`${name}.${d}`));
  return dots >= conf.ndots ? [fqdn(name), ...searched] : [...searched, fqdn(name)];
}

/**
 * The names dig +search tries (BIND 9.18 dighost.c setup_lookup() and next_origin()): a name
 * with at least ndots dots, or a trailing dot, as is and nothing else (unlike glibc, which
 * tries the search list after it); otherwise each search domain, then the name as is.
 */
export function digSearchCandidates(name: string, conf: ResolvConf): string[] {
  const dots = name.split('.').length - 1;
  if (name.endsWith('.') || dots >= conf.ndots) return [fqdn(name)];
  return [...conf.search.map((d) => fqdn(`${name}.${d}`)), fqdn(name)];
}
