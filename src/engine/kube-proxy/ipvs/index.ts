/** kube-proxy's IPVS mode: the proxier, its ipsets and iptables rules. */
export {
  createIpvsProxier,
  ipvsJumpRuleOps,
  type IpvsNode,
  type IpvsProxier,
  type IpvsProxierOptions,
  type IpvsSyncResult,
} from './proxier';
export { IPVS_FILTER_CHAINS, IPVS_JUMPS, IPVS_NAT_CHAINS, KUBE_IPSETS, SET_JUMPS } from './ipsets';
export { ipvsRestoreInput } from './rules';
