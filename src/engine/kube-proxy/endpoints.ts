/**
 * kube-proxy's endpoints view: EndpointSlices → per-service-port endpoint lists
 * (pkg/proxy/endpointslicecache.go), and the Cluster/Local split of one service port's
 * endpoints (pkg/proxy/topology.go `CategorizeEndpoints`).
 *
 * Topology-aware routing (zone/node hints, trafficDistribution) is not modelled: the lab's
 * EndpointSlices carry no hints, so kube-proxy's `topologyModeFromHints` always returns ""
 * (no topology) and every Ready endpoint is a Cluster endpoint.
 */
import type { Cluster, EndpointSlice } from '../model/cluster';
import { ipIsValid } from '../model/ip';
import {
  compareStrings,
  servicePortKey,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type ServicePortInfo,
} from './service-port';

/** EndpointSlices with these labels are filtered out by kube-proxy's informer label selector. */
const SKIPPED_SLICE_LABELS = [
  'service.kubernetes.io/headless',
  'service.kubernetes.io/service-proxy-name',
];

export interface EndpointInfo {
  readonly ip: string;
  readonly port: number;
  /** `ip:port` (`net.JoinHostPort`): the SEP hash input, the DNAT target and the sort key. */
  readonly endpoint: string;
  /** nodeName equals this node (an unset nodeName is never local). */
  readonly isLocal: boolean;
  readonly ready: boolean;
  readonly serving: boolean;
  readonly terminating: boolean;
  readonly nodeName?: string;
}

/** servicePortKey → endpoints sorted by `ip:port` (byte order), as `endpointsMapFromEndpointInfo`. */
export type EndpointsMap = ReadonlyMap<string, readonly EndpointInfo[]>;

function sliceSkipped(slice: EndpointSlice): boolean {
  return (
    SKIPPED_SLICE_LABELS.some((label) => label in slice.meta.labels) || slice.serviceName === ''
  );
}

/**
 * Builds the endpoints of every service port named by a slice (`endpointInfoByServicePort`):
 * each slice port with a non-zero port number yields, per endpoint with an address, the first
 * address joined with that port. Duplicates (an endpoint seen in two slices) keep the first
 * one unless a later copy is not terminating (`addEndpoints`). Slices are read in name order
 * (kube-proxy reads them in map order; it only matters for duplicates).
 */
export function buildEndpointsMap(
  cluster: Pick<Cluster, 'endpointSlices'>,
  nodeName: string,
): Map<string, EndpointInfo[]> {
  return endpointsFromSlices(cluster.endpointSlices, nodeName);
}

/**
 * `buildEndpointsMap` over any list of slices. The proxier calls it per Service with that
 * Service's slices: a service port only ever reads slices of its own namespace/name.
 */
export function endpointsFromSlices(
  endpointSlices: readonly EndpointSlice[],
  nodeName: string,
): Map<string, EndpointInfo[]> {
  const bySpn = new Map<string, Map<string, EndpointInfo>>();
  const slices = endpointSlices
    .filter((s) => !sliceSkipped(s) && s.addressType === 'IPv4')
    .sort((a, b) => compareStrings(sliceKey(a), sliceKey(b)));
  for (const slice of slices) {
    const serviceKey = `${slice.meta.namespace}/${slice.serviceName}`;
    for (const port of slice.ports) {
      if (port.port === 0) continue; // "Ignoring invalid endpoint port"
      const key = servicePortKey(serviceKey, port.name, port.protocol);
      let set = bySpn.get(key);
      if (!set) bySpn.set(key, (set = new Map()));
      for (const ep of slice.endpoints) {
        const ip = ep.addresses[0];
        if (ip === undefined || !ipIsValid(ip)) continue;
        const info: EndpointInfo = {
          ip,
          port: port.port,
          endpoint: `${ip}:${port.port}`,
          isLocal: nodeName !== '' && ep.nodeName === nodeName,
          ready: ep.conditions.ready,
          serving: ep.conditions.serving,
          terminating: ep.conditions.terminating,
          ...(ep.nodeName !== undefined ? { nodeName: ep.nodeName } : {}),
        };
        // Prefer a running endpoint over a terminating one reusing the same IP.
        if (!set.has(info.endpoint) || !info.terminating) set.set(info.endpoint, info);
      }
    }
  }
  const out = new Map<string, EndpointInfo[]>();
  for (const [key, set] of bySpn) {
    if (set.size === 0) continue;
    out.set(key, sortEndpoints([...set.values()]));
  }
  return out;
}

function sliceKey(slice: EndpointSlice): string {
  return `${slice.meta.namespace}/${slice.meta.name}`;
}

/** `byEndpoint`: lexicographic on `ip:port`, so 10.244.0.10:80 sorts before 10.244.0.8:80. */
export function sortEndpoints<T extends { readonly endpoint: string }>(eps: T[]): T[] {
  return eps.sort((a, b) => compareStrings(a.endpoint, b.endpoint));
}

/** The endpoints of a service port: the slice port must match its name and protocol. */
export function endpointsFor(map: EndpointsMap, info: ServicePortInfo): readonly EndpointInfo[] {
  return map.get(servicePortKey(info.serviceKey, info.portName, info.protocol)) ?? [];
}

export interface CategorizedEndpoints {
  /** Usable endpoints for Cluster traffic policy; empty when the port never uses Cluster policy. */
  readonly clusterEndpoints: readonly EndpointInfo[];
  /** Usable endpoints on this node for Local traffic policy; empty when never used. */
  readonly localEndpoints: readonly EndpointInfo[];
  /** Union of the two: every endpoint this node may DNAT to (one KUBE-SEP chain each). */
  readonly allReachableEndpoints: readonly EndpointInfo[];
  /** Some usable endpoint exists somewhere in the cluster. */
  readonly hasEndpoints: boolean;
}

/**
 * `CategorizeEndpoints`. "Usable" means Ready; if none are Ready, Serving+Terminating ones
 * are used instead — independently for the Cluster and the Local list.
 */
export function categorizeEndpoints(
  endpoints: readonly EndpointInfo[],
  info: ServicePortInfo,
): CategorizedEndpoints {
  let clusterEndpoints: EndpointInfo[] = [];
  let localEndpoints: EndpointInfo[] = [];
  let hasEndpoints = false;
  const useCluster = usesClusterEndpoints(info);
  if (useCluster) {
    clusterEndpoints = endpoints.filter((ep) => ep.ready);
    if (clusterEndpoints.length === 0) {
      clusterEndpoints = endpoints.filter((ep) => ep.serving && ep.terminating);
    }
    hasEndpoints = clusterEndpoints.length > 0;
  }
  if (!usesLocalEndpoints(info)) {
    return {
      clusterEndpoints,
      localEndpoints,
      allReachableEndpoints: clusterEndpoints,
      hasEndpoints,
    };
  }

  let localReady = false;
  let localServingTerminating = false;
  for (const ep of endpoints) {
    if (ep.ready) {
      hasEndpoints = true;
      if (ep.isLocal) localReady = true;
    } else if (ep.serving && ep.terminating) {
      hasEndpoints = true;
      if (ep.isLocal) localServingTerminating = true;
    }
  }
  let useServingTerminating = false;
  if (localReady) {
    localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.ready);
  } else if (localServingTerminating) {
    useServingTerminating = true;
    localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.serving && ep.terminating);
  }
  if (!useCluster) {
    return {
      clusterEndpoints,
      localEndpoints,
      allReachableEndpoints: localEndpoints,
      hasEndpoints,
    };
  }
  if (!useServingTerminating) {
    // clusterEndpoints holds every Ready endpoint, a superset of the Ready local ones.
    return {
      clusterEndpoints,
      localEndpoints,
      allReachableEndpoints: clusterEndpoints,
      hasEndpoints,
    };
  }
  // Merge the lists. kube-proxy builds the union through a Go map (random order); the lab
  // keeps the endpoint-string order of every other list.
  const union = new Map<string, EndpointInfo>();
  for (const ep of [...clusterEndpoints, ...localEndpoints]) union.set(ep.endpoint, ep);
  return {
    clusterEndpoints,
    localEndpoints,
    allReachableEndpoints: sortEndpoints([...union.values()]),
    hasEndpoints,
  };
}
