/**
 * kube-proxy as the lab models it: Services + EndpointSlices → the rules a real kube-proxy
 * (v1.33+) writes. One proxier per node and mode: iptables and nftables modes are implemented.
 */
export {
  base32Encode,
  endpointChainName,
  nftEndpointChainNameBase,
  nftHashAndTruncate,
  nftServicePortChainNameBase,
  portProtoHash,
  servicePortChainName,
  sha256,
  utf8Encode,
  type ServiceChainPrefix,
} from './hash';
export {
  buildServicePorts,
  externallyAccessible,
  servicePortNameString,
  shouldSkipService,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type ServicePortInfo,
} from './service-port';
export {
  buildEndpointsMap,
  categorizeEndpoints,
  endpointsFor,
  type CategorizedEndpoints,
  type EndpointInfo,
  type EndpointsMap,
} from './endpoints';
export { nodePortAddressesFor, nodePortIPs, type NodePortAddresses } from './node-port-addresses';
export {
  createIptablesProxier,
  isServiceChainName,
  LARGE_CLUSTER_ENDPOINTS_THRESHOLD,
  type IptablesProxier,
  type IptablesProxierOptions,
  type SyncOptions,
  type SyncResult,
} from './iptables/proxier';
export {
  CANARY_CHAIN,
  jumpRuleArgv,
  jumpRuleOps,
  type IptablesTable,
  type JumpRuleOp,
} from './iptables/jump-rules';
export {
  computeProbability,
  formatFixedGo,
  localDetectorFor,
  masqueradeMark,
} from './iptables/format';
export {
  createIpvsProxier,
  ipvsJumpRuleOps,
  IPVS_FILTER_CHAINS,
  IPVS_JUMPS,
  IPVS_NAT_CHAINS,
  KUBE_IPSETS,
  type IpvsNode,
  type IpvsProxier,
  type IpvsSyncResult,
} from './ipvs';
export {
  createNftablesProxier,
  isNftServiceChainName,
  nftablesCleanupTransaction,
  type NftablesProxier,
  type NftablesProxierOptions,
  type NftSyncResult,
} from './nftables/proxier';
