/**
 * The ipsets kube-proxy's IPVS proxier keeps (pkg/proxy/ipvs/ipset.go names and comments,
 * proxier.go `ipsetInfo` types) and the iptables rules tied to them
 * (`ipsetWithIptablesChain`: written only when the set is non-empty, in this order).
 */
import type { SetType } from '../../ipset';

export interface KubeIpset {
  readonly name: string;
  readonly type: SetType;
  readonly comment: string;
}

export const KUBE_IPSETS: readonly KubeIpset[] = [
  {
    name: 'KUBE-LOOP-BACK',
    type: 'hash:ip,port,ip',
    comment: 'Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose',
  },
  {
    name: 'KUBE-CLUSTER-IP',
    type: 'hash:ip,port',
    comment: 'Kubernetes service cluster ip + port for masquerade purpose',
  },
  {
    name: 'KUBE-EXTERNAL-IP',
    type: 'hash:ip,port',
    comment: 'Kubernetes service external ip + port for masquerade and filter purpose',
  },
  {
    name: 'KUBE-EXTERNAL-IP-LOCAL',
    type: 'hash:ip,port',
    comment: 'Kubernetes service external ip + port with externalTrafficPolicy=local',
  },
  { name: 'KUBE-LOAD-BALANCER', type: 'hash:ip,port', comment: 'Kubernetes service lb portal' },
  {
    name: 'KUBE-LOAD-BALANCER-FW',
    type: 'hash:ip,port',
    comment: 'Kubernetes service load balancer ip + port for load balancer with sourceRange',
  },
  {
    name: 'KUBE-LOAD-BALANCER-LOCAL',
    type: 'hash:ip,port',
    comment: 'Kubernetes service load balancer ip + port with externalTrafficPolicy=local',
  },
  {
    name: 'KUBE-LOAD-BALANCER-SOURCE-IP',
    type: 'hash:ip,port,ip',
    comment: 'Kubernetes service load balancer ip + port + source IP for packet filter purpose',
  },
  {
    name: 'KUBE-LOAD-BALANCER-SOURCE-CIDR',
    type: 'hash:ip,port,net',
    comment: 'Kubernetes service load balancer ip + port + source cidr for packet filter purpose',
  },
  {
    name: 'KUBE-NODE-PORT-TCP',
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport TCP port for masquerade purpose',
  },
  {
    name: 'KUBE-NODE-PORT-LOCAL-TCP',
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport TCP port with externalTrafficPolicy=local',
  },
  {
    name: 'KUBE-NODE-PORT-UDP',
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport UDP port for masquerade purpose',
  },
  {
    name: 'KUBE-NODE-PORT-LOCAL-UDP',
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport UDP port with externalTrafficPolicy=local',
  },
  {
    name: 'KUBE-NODE-PORT-SCTP-HASH',
    type: 'hash:ip,port',
    comment: "Kubernetes nodeport SCTP port for masquerade purpose with type 'hash ip:port'",
  },
  {
    name: 'KUBE-NODE-PORT-LOCAL-SCTP-HASH',
    type: 'hash:ip,port',
    comment:
      "Kubernetes nodeport SCTP port with externalTrafficPolicy=local with type 'hash ip:port'",
  },
  {
    name: 'KUBE-HEALTH-CHECK-NODE-PORT',
    type: 'bitmap:port',
    comment: 'Kubernetes health check node port',
  },
  { name: 'KUBE-IPVS-IPS', type: 'hash:ip', comment: 'Addresses on the ipvs interface' },
];

export const commentOf = (name: string): string =>
  KUBE_IPSETS.find((s) => s.name === name)?.comment ?? '';

export interface SetJump {
  readonly set: string;
  readonly table: 'nat' | 'filter';
  readonly from: string;
  readonly to: string;
  readonly match: string;
  readonly protocol?: string;
}

/** `ipsetWithIptablesChain` (the LOCAL NodePort sets come before the plain ones). */
export const SET_JUMPS: readonly SetJump[] = [
  {
    set: 'KUBE-LOOP-BACK',
    table: 'nat',
    from: 'KUBE-POSTROUTING',
    to: 'MASQUERADE',
    match: 'dst,dst,src',
  },
  {
    set: 'KUBE-LOAD-BALANCER',
    table: 'nat',
    from: 'KUBE-SERVICES',
    to: 'KUBE-LOAD-BALANCER',
    match: 'dst,dst',
  },
  {
    set: 'KUBE-LOAD-BALANCER-LOCAL',
    table: 'nat',
    from: 'KUBE-LOAD-BALANCER',
    to: 'RETURN',
    match: 'dst,dst',
  },
  {
    set: 'KUBE-NODE-PORT-LOCAL-TCP',
    table: 'nat',
    from: 'KUBE-NODE-PORT',
    to: 'RETURN',
    match: 'dst',
    protocol: 'tcp',
  },
  {
    set: 'KUBE-NODE-PORT-TCP',
    table: 'nat',
    from: 'KUBE-NODE-PORT',
    to: 'KUBE-MARK-MASQ',
    match: 'dst',
    protocol: 'tcp',
  },
  {
    set: 'KUBE-NODE-PORT-LOCAL-UDP',
    table: 'nat',
    from: 'KUBE-NODE-PORT',
    to: 'RETURN',
    match: 'dst',
    protocol: 'udp',
  },
  {
    set: 'KUBE-NODE-PORT-UDP',
    table: 'nat',
    from: 'KUBE-NODE-PORT',
    to: 'KUBE-MARK-MASQ',
    match: 'dst',
    protocol: 'udp',
  },
  {
    set: 'KUBE-NODE-PORT-LOCAL-SCTP-HASH',
    table: 'nat',
    from: 'KUBE-NODE-PORT',
    to: 'RETURN',
    match: 'dst,dst',
    protocol: 'sctp',
  },
  {
    set: 'KUBE-NODE-PORT-SCTP-HASH',
    table: 'nat',
    from: 'KUBE-NODE-PORT',
    to: 'KUBE-MARK-MASQ',
    match: 'dst,dst',
    protocol: 'sctp',
  },
  {
    set: 'KUBE-LOAD-BALANCER-FW',
    table: 'filter',
    from: 'KUBE-PROXY-FIREWALL',
    to: 'KUBE-SOURCE-RANGES-FIREWALL',
    match: 'dst,dst',
  },
  {
    set: 'KUBE-LOAD-BALANCER-SOURCE-CIDR',
    table: 'filter',
    from: 'KUBE-SOURCE-RANGES-FIREWALL',
    to: 'RETURN',
    match: 'dst,dst,src',
  },
  {
    set: 'KUBE-LOAD-BALANCER-SOURCE-IP',
    table: 'filter',
    from: 'KUBE-SOURCE-RANGES-FIREWALL',
    to: 'RETURN',
    match: 'dst,dst,src',
  },
];

/** `iptablesChains`: declared (and so flushed) by every restore, nat first. */
export const IPVS_NAT_CHAINS = [
  'KUBE-SERVICES',
  'KUBE-POSTROUTING',
  'KUBE-NODE-PORT',
  'KUBE-LOAD-BALANCER',
  'KUBE-MARK-MASQ',
];
export const IPVS_FILTER_CHAINS = [
  'KUBE-FORWARD',
  'KUBE-NODE-PORT',
  'KUBE-PROXY-FIREWALL',
  'KUBE-SOURCE-RANGES-FIREWALL',
  'KUBE-IPVS-FILTER',
  'KUBE-IPVS-OUT-FILTER',
];

/** `iptablesJumpChain`: ensured with EnsureRule(Prepend) on every sync. */
export const IPVS_JUMPS: readonly {
  table: 'nat' | 'filter';
  from: string;
  to: string;
  comment: string;
}[] = [
  { table: 'nat', from: 'OUTPUT', to: 'KUBE-SERVICES', comment: 'kubernetes service portals' },
  { table: 'nat', from: 'PREROUTING', to: 'KUBE-SERVICES', comment: 'kubernetes service portals' },
  {
    table: 'nat',
    from: 'POSTROUTING',
    to: 'KUBE-POSTROUTING',
    comment: 'kubernetes postrouting rules',
  },
  { table: 'filter', from: 'FORWARD', to: 'KUBE-FORWARD', comment: 'kubernetes forwarding rules' },
  {
    table: 'filter',
    from: 'INPUT',
    to: 'KUBE-NODE-PORT',
    comment: 'kubernetes health check rules',
  },
  {
    table: 'filter',
    from: 'INPUT',
    to: 'KUBE-PROXY-FIREWALL',
    comment: 'kube-proxy firewall rules',
  },
  {
    table: 'filter',
    from: 'FORWARD',
    to: 'KUBE-PROXY-FIREWALL',
    comment: 'kube-proxy firewall rules',
  },
  {
    table: 'filter',
    from: 'INPUT',
    to: 'KUBE-IPVS-FILTER',
    comment: 'kubernetes ipvs access filter',
  },
  {
    table: 'filter',
    from: 'OUTPUT',
    to: 'KUBE-IPVS-OUT-FILTER',
    comment: 'kubernetes ipvs access filter',
  },
];
