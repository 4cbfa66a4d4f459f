/**
 * kube-proxy's view of Services: one ServicePortInfo per (Service, port), as built by
 * pkg/proxy/servicechangetracker.go `serviceToServiceMap` and pkg/proxy/serviceport.go
 * `newBaseServiceInfo`, for the IPv4 family (the lab is IPv4 single-stack).
 */
import type { Cluster, Protocol, Service, ServicePort } from '../model/cluster';
import { cidrParse, cidrToString, ipIsValid } from '../model/ip';

/** Services carrying this label are left to another proxy (kube-proxy's informer label selector). */
export const LABEL_SERVICE_PROXY_NAME = 'service.kubernetes.io/service-proxy-name';

export interface ServicePortInfo {
  /** `ServicePortName.String()`: `namespace/name:portName`, or `namespace/name` for an unnamed port. */
  readonly nameString: string;
  /** `namespace/name`: the unit kube-proxy's change trackers (and partial syncs) work in. */
  readonly serviceKey: string;
  readonly namespace: string;
  readonly name: string;
  readonly portName: string;
  readonly protocol: Protocol;
  readonly clusterIP: string;
  readonly port: number;
  /** 0 when the port has no NodePort. */
  readonly nodePort: number;
  readonly externalIPs: readonly string[];
  /** LoadBalancer ingress IPs in VIP mode (`ipMode: Proxy` entries are skipped). */
  readonly loadBalancerVIPs: readonly string[];
  /** Parsed and re-printed CIDRs (`net.IPNet.String()`), whitespace trimmed, invalid ones dropped. */
  readonly loadBalancerSourceRanges: readonly string[];
  /** Only for LoadBalancer + eTP Local (`apiservice.NeedsHealthCheck`); 0 otherwise. */
  readonly healthCheckNodePort: number;
  readonly sessionAffinityClientIP: boolean;
  /** `sessionAffinityConfig.clientIP.timeoutSeconds` when ClientIP affinity is on; 0 otherwise. */
  readonly stickyMaxAgeSeconds: number;
  /** eTP Local and the Service is externally accessible (`apiservice.ExternalPolicyLocal`). */
  readonly externalPolicyLocal: boolean;
  readonly internalPolicyLocal: boolean;
}

/** `ServicePortName.String()` (pkg/proxy/types.go): no `:` when the port is unnamed. */
export function servicePortNameString(namespace: string, name: string, portName: string): string {
  return `${namespace}/${name}${portName === '' ? '' : `:${portName}`}`;
}

/** Key of the (service, port name, protocol) triple that joins services to endpoints. */
export function servicePortKey(serviceKey: string, portName: string, protocol: Protocol): string {
  return `${serviceKey}:${portName}/${protocol}`;
}

export function infoKey(info: ServicePortInfo): string {
  return servicePortKey(info.serviceKey, info.portName, info.protocol);
}

/** `BaseServicePortInfo.ExternallyAccessible`: a NodePort, an LB VIP or an external IP. */
export function externallyAccessible(info: ServicePortInfo): boolean {
  return info.nodePort !== 0 || info.loadBalancerVIPs.length > 0 || info.externalIPs.length > 0;
}

/** `UsesClusterEndpoints`: iTP Cluster, or any external traffic at all (short circuit needs them). */
export function usesClusterEndpoints(info: ServicePortInfo): boolean {
  return !info.internalPolicyLocal || externallyAccessible(info);
}

/** `UsesLocalEndpoints`: iTP Local, or eTP Local on an externally accessible port. */
export function usesLocalEndpoints(info: ServicePortInfo): boolean {
  return info.internalPolicyLocal || (info.externalPolicyLocal && externallyAccessible(info));
}

/**
 * `proxyutil.ShouldSkipService`: no ClusterIP ('' or 'None' = headless) or type ExternalName.
 * The lab also skips a ClusterIP that is not IPv4 (`GetClusterIPByFamily` returns '' then).
 */
export function shouldSkipService(svc: Service): boolean {
  if (svc.type === 'ExternalName') return true;
  if (svc.clusterIP === '' || svc.clusterIP === 'None') return true;
  if (!ipIsValid(svc.clusterIP)) return true;
  return LABEL_SERVICE_PROXY_NAME in svc.meta.labels;
}

/** `apiservice.ExternallyAccessible` (service level, by type). */
function serviceExternallyAccessible(svc: Service): boolean {
  return (
    svc.type === 'LoadBalancer' ||
    svc.type === 'NodePort' ||
    (svc.type === 'ClusterIP' && svc.externalIPs.length > 0)
  );
}

function sourceRanges(svc: Service): string[] {
  const out: string[] = [];
  for (const raw of svc.loadBalancerSourceRanges) {
    // newBaseServiceInfo trims whitespace ("validation mistakenly allows whitespace padding"),
    // then MapCIDRsByIPFamily parses and keeps the IPv4 ones; String() prints the network.
    const cidr = cidrParse(raw.trim(), { allowHostBits: true });
    if (cidr) out.push(cidrToString(cidr));
  }
  return out;
}

function newServicePortInfo(svc: Service, port: ServicePort): ServicePortInfo {
  const externalPolicyLocal =
    serviceExternallyAccessible(svc) && svc.externalTrafficPolicy === 'Local';
  const affinity = svc.sessionAffinity === 'ClientIP';
  const needsHealthCheck = svc.type === 'LoadBalancer' && externalPolicyLocal;
  return {
    nameString: servicePortNameString(svc.meta.namespace, svc.meta.name, port.name),
    serviceKey: `${svc.meta.namespace}/${svc.meta.name}`,
    namespace: svc.meta.namespace,
    name: svc.meta.name,
    portName: port.name,
    protocol: port.protocol,
    clusterIP: svc.clusterIP,
    port: port.port,
    nodePort: port.nodePort,
    externalIPs: svc.externalIPs.filter(ipIsValid),
    // proxyutil.IsVIPMode: an unset ipMode means VIP.
    loadBalancerVIPs: svc.loadBalancerIngress
      .filter((ing) => ing.ip !== '' && ing.ipMode !== 'Proxy' && ipIsValid(ing.ip))
      .map((ing) => ing.ip),
    loadBalancerSourceRanges: sourceRanges(svc),
    healthCheckNodePort: needsHealthCheck ? svc.healthCheckNodePort : 0,
    sessionAffinityClientIP: affinity,
    stickyMaxAgeSeconds: affinity ? svc.sessionAffinityTimeout : 0,
    externalPolicyLocal,
    internalPolicyLocal: svc.internalTrafficPolicy === 'Local',
  };
}

/** kube-proxy's service-port order: S, then protocol (ties keep the Services' port order). */
export function compareServicePorts(a: ServicePortInfo, b: ServicePortInfo): number {
  return compareStrings(a.nameString, b.nameString) || compareStrings(a.protocol, b.protocol);
}

/** What a proxier derives from one Service object; the object never changes, so this is cached. */
export interface ServiceDerivation {
  /** Its ServicePortInfos in `compareServicePorts` order (empty for a skipped Service). */
  readonly infos: readonly ServicePortInfo[];
  /** `portIndexes[i]`: the index in `svc.ports` of `infos[i]` (cluster order breaks ties). */
  readonly portIndexes: readonly number[];
}

// Cluster objects are immutable, so a Service object's derivation can be shared by every
// proxier (one per node) and every sync that sees the same object again.
const derivations = new WeakMap<Service, ServiceDerivation>();

export function serviceDerivation(svc: Service): ServiceDerivation {
  let d = derivations.get(svc);
  if (d === undefined) {
    const entries = shouldSkipService(svc)
      ? []
      : svc.ports.map((port, index) => ({ info: newServicePortInfo(svc, port), index }));
    entries.sort((a, b) => compareServicePorts(a.info, b.info));
    d = {
      infos: entries.map((e) => e.info),
      portIndexes: entries.map((e) => e.index),
    };
    derivations.set(svc, d);
  }
  return d;
}

/**
 * All service ports kube-proxy programs, ordered by S then protocol.
 * Real kube-proxy iterates its ServicePortMap in Go map order, which is random and changes
 * from sync to sync; the lab sorts so that every run (and every test) sees the same file.
 */
export function buildServicePorts(cluster: Pick<Cluster, 'services'>): ServicePortInfo[] {
  const out: ServicePortInfo[] = [];
  for (const svc of cluster.services) {
    if (shouldSkipService(svc)) continue;
    for (const port of svc.ports) out.push(newServicePortInfo(svc, port));
  }
  return out.sort(compareServicePorts);
}

/** Byte-wise string order (Go's `<` on strings), independent of locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
