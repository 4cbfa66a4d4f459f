/**
 * The record sources of CoreDNS's kubernetes plugin for `…svc.cluster.local` names, as
 * plugin/kubernetes/parse.go parseRequest() and kubernetes.go findServices() find them, and the
 * SRV records plugin/backend_lookup.go SRV() builds from them:
 *
 * - `_PORT._PROTO.SVC.NS.svc` (leading underscores optional, stripUnderscore()) selects the Service
 *   ports (ClusterIP) or EndpointSlice ports (headless) with that name and protocol; without
 *   them every port matches (matchPortAndProtocol: an empty request part is a wildcard), so
 *   `SVC.NS.svc` SRV lists all ports, unnamed ones too. `*`/`any` wildcards were removed from
 *   CoreDNS in 1.9 and are literal names here too.
 * - `ENDPOINT.SVC.NS.svc`: the endpoints whose hostname is ENDPOINT; an endpoint without a
 *   hostname is named by its dashed IP (endpointHostname()).
 * - No port matching: NXDOMAIN (findServices keeps errNoItems), also for a one-label
 *   `_tcp.SVC.NS.svc`, which parses as an endpoint named `_tcp`.
 */
import type { Cluster, EndpointPort, Service } from '../../model/cluster';

export const CLUSTER_DOMAIN = 'cluster.local';

/** parse.go recordRequest for the svc kind; undefined parts were not in the name. */
export interface ServiceRequest {
  readonly port?: string | undefined;
  readonly protocol?: string | undefined;
  readonly endpoint?: string | undefined;
  readonly service?: string | undefined;
  readonly namespace?: string | undefined;
}

/** msg.Service: an address (or ExternalName) with a port and the name its SRV target gets. */
export interface ServiceRecord {
  readonly host: string;
  /** -1: an EndpointSlice without ports (CoreDNS's sentinel, never an SRV record). */
  readonly port: number;
  /** msg.Domain(Key): the Service's name, or the endpoint's name under it. */
  readonly target: string;
  readonly externalName: boolean;
}

/** Labels under `svc.cluster.local.`, innermost first as written: [..., service, namespace]. */
export function parseServiceRequest(labels: readonly string[]): ServiceRequest | 'invalid' {
  const n = labels.length;
  const [namespace, service] = [labels[n - 1], labels[n - 2]];
  if (n <= 2) return { namespace, service };
  if (n === 3) return { namespace, service, endpoint: labels[0] };
  if (n === 4) {
    const strip = (l: string) => (l.startsWith('_') ? l.slice(1) : l);
    return { namespace, service, port: strip(labels[0] ?? ''), protocol: strip(labels[1] ?? '') };
  }
  return 'invalid'; // "too long": NXDOMAIN
}

/** matchPortAndProtocol(): case-insensitive, an absent request part matches anything. */
function portMatches(r: ServiceRequest, name: string, protocol: string): boolean {
  const same = (a: string | undefined, b: string) =>
    a === undefined || a === '' || a.toLowerCase() === b.toLowerCase();
  return same(r.port, name) && same(r.protocol, protocol);
}

const svcDomain = (svc: Service) => `${svc.meta.name}.${svc.meta.namespace}.svc.${CLUSTER_DOMAIN}.`;

/** endpointHostname(): the lab keeps no endpoint hostnames, so always the dashed IP. */
export const endpointHostname = (ip: string) => ip.replaceAll('.', '-');

function endpointRecords(cluster: Cluster, svc: Service, r: ServiceRequest): ServiceRecord[] {
  const out: ServiceRecord[] = [];
  for (const slice of cluster.endpointSlices) {
    if (slice.meta.namespace !== svc.meta.namespace || slice.serviceName !== svc.meta.name)
      continue;
    // object.EndpointSliceToEndpoints adds a port -1 to a slice that has none.
    const ports: readonly EndpointPort[] =
      slice.ports.length > 0 ? slice.ports : [{ name: '', port: -1, protocol: 'TCP' }];
    for (const ep of slice.endpoints) {
      if (!ep.conditions.ready) continue;
      for (const ip of ep.addresses) {
        const hostname = endpointHostname(ip);
        if (r.endpoint !== undefined && r.endpoint.toLowerCase() !== hostname) continue;
        for (const p of ports) {
          // The sentinel has no name or protocol: only a request without them matches it.
          const [name, protocol] = p.port === -1 ? ['', ''] : [p.name, p.protocol];
          if (!portMatches(r, name, protocol)) continue;
          const target = `${hostname}.${svcDomain(svc)}`;
          out.push({ host: ip, port: p.port, target, externalName: false });
        }
      }
    }
  }
  return out;
}

/** findServices() for one Service: its records, or undefined for errNoItems (NXDOMAIN). */
export function serviceRecords(
  cluster: Cluster,
  svc: Service,
  r: ServiceRequest,
): ServiceRecord[] | undefined {
  if (svc.type === 'ExternalName') {
    if (r.endpoint !== undefined || r.port !== undefined || svc.externalName === undefined)
      return undefined;
    return [{ host: svc.externalName, port: 0, target: svcDomain(svc), externalName: true }];
  }
  if (svc.clusterIP === 'None' || r.endpoint !== undefined) {
    const records = endpointRecords(cluster, svc, r);
    return records.length === 0 ? undefined : records;
  }
  const ports = svc.ports.filter((p) => portMatches(r, p.name, p.protocol));
  if (ports.length === 0) return undefined;
  const ips = svc.clusterIP === '' ? [] : [svc.clusterIP];
  return ports.flatMap((p) =>
    ips.map((host) => ({ host, port: p.port, target: svcDomain(svc), externalName: false })),
  );
}

export interface SrvRecord {
  readonly priority: number;
  readonly weight: number;
  readonly port: number;
  readonly target: string;
}

/**
 * backend_lookup.go SRV(): weight floor(100 / number of records) (every record has priority 0
 * and weight 100, so each gets 100·100/total), at least 1; records with port -1 are skipped
 * but counted; one SRV per target and port, one address per target and IP. ExternalName
 * records are dropped first (kubernetes.go Services(): SRV for external services is not
 * implemented), leaving NODATA.
 */
export function srvRecords(records: readonly ServiceRecord[]): {
  readonly srv: SrvRecord[];
  readonly addresses: { readonly name: string; readonly address: string }[];
} {
  const internal = records.filter((s) => !s.externalName);
  const weight = Math.max(1, Math.floor(100 / internal.length));
  const seen = new Set<string>();
  const srv: SrvRecord[] = [];
  const addresses: { name: string; address: string }[] = [];
  for (const s of internal) {
    if (s.port === -1) continue;
    const srvKey = `srv ${s.target} ${s.port}`;
    if (!seen.has(srvKey)) srv.push({ priority: 0, weight, port: s.port, target: s.target });
    seen.add(srvKey);
    const addrKey = `addr ${s.target} ${s.host}`;
    if (!seen.has(addrKey)) addresses.push({ name: s.target, address: s.host });
    seen.add(addrKey);
  }
  return { srv, addresses };
}
