/**
 * v1 Endpoints, the objects `kubectl get endpoints` lists (Kubernetes 1.32: not yet deprecated,
 * so no warning). kube-proxy reads EndpointSlices; Endpoints are what the older endpoints
 * controller keeps beside them, and many tutorials still look at them.
 *
 * - Services with a selector (not ExternalName): pkg/controller/endpoint syncService. Every
 *   selected pod with an address, not terminating (unless publishNotReadyAddresses), gives one
 *   address per Service port its targetPort resolves to (podutil.FindPort), ready or not
 *   ready; then pkg/api/v1/endpoints RepackSubsets groups ports by the set of addresses that
 *   offer them, and SortSubsets orders addresses by IP (as bytes, then pod UID), ports and
 *   subsets by the MD5 of their go-spew dump (k8s.io/utils/dump ForHash). Labels are the
 *   Service's, plus service.kubernetes.io/headless on a headless Service; over 1,000 addresses
 *   are truncated (truncateEndpoints) and annotated.
 * - default/kubernetes: the API server's endpoint reconciler writes one subset of the sorted
 *   API server addresses with the Service's ports, labelled endpointslice.kubernetes.io/skip-mirror.
 * - Other Services without a selector get no Endpoints from any controller (their slices came
 *   from somewhere else), so none are listed.
 *
 * Left out as the lab leaves it out of EndpointSlices too: the
 * endpoints.kubernetes.io/last-change-trigger-time annotation and pod hostnames (the lab's
 * pods have no spec.hostname/subdomain).
 */
import type { Cluster, Pod, Service } from '../../model/cluster';
import { findPort, matchesSelector } from '../../scenario';
import { byHash, spewPort, spewSubset } from './endpoints-hash';
import { metadata, uidFor, type ApiContext } from './objects';
import type { Json } from './yaml';

export interface EndpointsPort {
  readonly name: string;
  readonly port: number;
  readonly protocol: string;
}

export interface EndpointsAddress {
  readonly ip: string;
  readonly nodeName?: string;
  readonly targetRef?: {
    readonly kind: string;
    readonly namespace: string;
    readonly name: string;
    readonly uid: string;
  };
}

export interface EndpointsSubset {
  readonly addresses: readonly EndpointsAddress[];
  readonly notReadyAddresses: readonly EndpointsAddress[];
  readonly ports: readonly EndpointsPort[];
}

export interface EndpointsObject {
  readonly service: Service;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly subsets: readonly EndpointsSubset[];
}

/** maxCapacity of the endpoints controller. */
const MAX_CAPACITY = 1000;
const HEADLESS_LABEL = 'service.kubernetes.io/headless';
const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';

/** LessEndpointAddress: the IP's bytes, then the target's UID. */
function compareAddresses(a: EndpointsAddress, b: EndpointsAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const ua = a.targetRef?.uid ?? '';
  const ub = b.targetRef?.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

export interface RepackEntry {
  readonly addr: EndpointsAddress;
  readonly port: EndpointsPort | undefined;
  readonly ready: boolean;
}

interface PortEntry {
  /** undefined: RepackSubsets' sentinel for addresses without ports (a headless Service's). */
  readonly port: EndpointsPort | undefined;
  /** Address key → address and readiness (not ready wins, as mapAddressByPort has it). */
  readonly addrs: Map<string, { addr: EndpointsAddress; ready: boolean }>;
}

/** RepackSubsets then SortSubsets, from one (address, port, ready) triple per pod and port. */
export function repackSubsets(entries: readonly RepackEntry[]): EndpointsSubset[] {
  const byPort = new Map<string, PortEntry>();
  for (const { addr, port, ready } of entries) {
    const pk = port === undefined ? '' : `${port.name}\n${port.port}\n${port.protocol}`;
    let entry = byPort.get(pk);
    if (entry === undefined) byPort.set(pk, (entry = { port, addrs: new Map() }));
    const ak = `${addr.ip}\n${addr.targetRef?.uid ?? ''}`;
    const was = entry.addrs.get(ak);
    if (was === undefined || was.ready) entry.addrs.set(ak, { addr, ready });
  }
  // Ports offered by the same addresses, with the same readiness, share a subset.
  const groups = new Map<string, { entry: PortEntry; ports: EndpointsPort[] }>();
  for (const entry of byPort.values()) {
    const key = [...entry.addrs.entries()]
      .map(([k, v]) => `${k}\n${v.ready}`)
      .sort()
      .join('\n\n');
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { entry, ports: [] }));
    if (entry.port !== undefined) group.ports.push(entry.port);
  }
  const subsets = [...groups.values()].map(({ entry, ports }): EndpointsSubset => {
    const all = [...entry.addrs.values()];
    return {
      addresses: all
        .filter((a) => a.ready)
        .map((a) => a.addr)
        .sort(compareAddresses),
      notReadyAddresses: all
        .filter((a) => !a.ready)
        .map((a) => a.addr)
        .sort(compareAddresses),
      ports: byHash(ports, spewPort),
    };
  });
  return byHash(subsets, spewSubset);
}

/** truncateEndpoints: at most MAX_CAPACITY addresses, ready ones first, spread by proportion. */
function truncate(subsets: readonly EndpointsSubset[]): EndpointsSubset[] | undefined {
  const totalReady = subsets.reduce((n, s) => n + s.addresses.length, 0);
  const totalNotReady = subsets.reduce((n, s) => n + s.notReadyAddresses.length, 0);
  if (totalReady + totalNotReady <= MAX_CAPACITY) return undefined;
  const truncateReady = totalReady > MAX_CAPACITY;
  const max = truncateReady ? MAX_CAPACITY : MAX_CAPACITY - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  return subsets.map((s) => {
    const numInSubset = truncateReady ? s.addresses.length : s.notReadyAddresses.length;
    const toBeAdded = Math.min(Math.ceil((numInSubset / numTotal) * max), canBeAdded);
    if (truncateReady) {
      const addresses = s.addresses.slice(0, toBeAdded);
      canBeAdded -= addresses.length;
      return { ...s, addresses, notReadyAddresses: [] };
    }
    const notReadyAddresses = s.notReadyAddresses.slice(0, toBeAdded);
    canBeAdded -= notReadyAddresses.length;
    return { ...s, notReadyAddresses };
  });
}

/** The endpoints controller's Endpoints for a Service with a selector. */
function controllerEndpoints(cluster: Cluster, svc: Service): EndpointsObject {
  const selector = svc.selector ?? {};
  const publish = svc.publishNotReadyAddresses === true;
  const entries: RepackEntry[] = [];
  for (const pod of cluster.pods) {
    if (pod.meta.namespace !== svc.meta.namespace || !matchesSelector(selector, pod.meta.labels))
      continue;
    // ShouldPodBeInEndpoints: an address, and not terminating unless publishNotReadyAddresses.
    if (!pod.podIP || (pod.terminating && !publish)) continue;
    const addr = podAddress(pod);
    const ready = publish || pod.ready;
    if (svc.ports.length === 0) {
      // Allowed for a headless Service only: the addresses alone.
      if (svc.clusterIP === 'None') entries.push({ addr, port: undefined, ready });
      continue;
    }
    for (const sp of svc.ports) {
      const port = findPort(pod, sp.targetPort, sp.protocol);
      if (port !== undefined)
        entries.push({ addr, port: { name: sp.name, port, protocol: sp.protocol }, ready });
    }
  }
  let subsets = repackSubsets(entries);
  const truncated = truncate(subsets);
  if (truncated !== undefined) subsets = truncated;
  const labels: Record<string, string> = { ...svc.meta.labels };
  if (svc.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
  return {
    service: svc,
    labels,
    annotations: truncated === undefined ? {} : { [OVER_CAPACITY_ANNOTATION]: 'truncated' },
    subsets,
  };
}

function podAddress(pod: Pod): EndpointsAddress {
  return {
    ip: pod.podIP,
    nodeName: pod.nodeName,
    targetRef: {
      kind: 'Pod',
      namespace: pod.meta.namespace,
      name: pod.meta.name,
      uid: pod.meta.uid,
    },
  };
}

/** The API server's own Endpoints for default/kubernetes, from its EndpointSlice. */
function apiServerEndpoints(cluster: Cluster, svc: Service): EndpointsObject | undefined {
  const slices = cluster.endpointSlices.filter(
    (s) => s.meta.namespace === 'default' && s.serviceName === 'kubernetes',
  );
  if (slices.length === 0) return undefined;
  const ips = [...new Set(slices.flatMap((s) => s.endpoints.flatMap((e) => e.addresses)))].sort();
  const ports = slices[0]?.ports.map((p) => ({ name: p.name, port: p.port, protocol: p.protocol }));
  return {
    service: svc,
    labels: { [SKIP_MIRROR_LABEL]: 'true' },
    annotations: {},
    subsets: [{ addresses: ips.map((ip) => ({ ip })), notReadyAddresses: [], ports: ports ?? [] }],
  };
}

/** Every Endpoints object the cluster's controllers keep, in the Services' order. */
export function endpointsObjects(cluster: Cluster): EndpointsObject[] {
  const out: EndpointsObject[] = [];
  for (const svc of cluster.services) {
    if (svc.type === 'ExternalName') continue;
    if (svc.selector !== undefined) out.push(controllerEndpoints(cluster, svc));
    else if (svc.meta.namespace === 'default' && svc.meta.name === 'kubernetes') {
      const ep = apiServerEndpoints(cluster, svc);
      if (ep !== undefined) out.push(ep);
    }
  }
  return out;
}

/**
 * The ENDPOINTS cell (printers.go formatEndpoints): ready `ip:port` for each port of each
 * subset, the first three, then ` + N more...`; `<none>` without subsets.
 */
export function formatEndpoints(subsets: readonly EndpointsSubset[]): string {
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    if (ss.ports.length === 0) {
      count += ss.addresses.length;
      for (const a of ss.addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(a.ip);
      }
      continue;
    }
    for (const port of ss.ports) {
      count += ss.addresses.length;
      for (const a of ss.addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(`${a.ip.includes(':') ? `[${a.ip}]` : a.ip}:${port.port}`);
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

const addressJson = (a: EndpointsAddress): Record<string, Json> => ({
  ip: a.ip,
  ...(a.nodeName === undefined ? {} : { nodeName: a.nodeName }),
  ...(a.targetRef === undefined ? {} : { targetRef: { ...a.targetRef } }),
});

/** The object as the API server returns it (`omitempty` lists left out). */
export function endpointsJson(ctx: ApiContext, ep: EndpointsObject): Record<string, Json> {
  const { meta } = ep.service;
  const subsets = ep.subsets.map((s) => {
    const out: Record<string, Json> = {};
    if (s.addresses.length > 0) out.addresses = s.addresses.map(addressJson);
    if (s.notReadyAddresses.length > 0)
      out.notReadyAddresses = s.notReadyAddresses.map(addressJson);
    if (s.ports.length > 0)
      out.ports = s.ports.map((p) => ({
        ...(p.name === '' ? {} : { name: p.name }),
        port: p.port,
        protocol: p.protocol,
      }));
    return out;
  });
  const obj: Record<string, Json> = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: metadata(ctx, {
      ...meta,
      uid: uidFor(`endpoints:${meta.namespace}/${meta.name}`),
      labels: ep.labels,
      annotations: ep.annotations,
    }),
  };
  if (subsets.length > 0) obj.subsets = subsets;
  return obj;
}
