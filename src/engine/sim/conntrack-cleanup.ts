/**
 * kube-proxy's conntrack housekeeping at the end of a successful sync
 * (pkg/proxy/conntrack/cleanup.go `CleanStaleEntries`, v1.31+; the same in iptables, IPVS and
 * nftables modes):
 *
 * - it runs only when `ConntrackCleanupRequired` (pkg/proxy/endpointschangetracker.go): some
 *   EndpointSlice change touched a Service that had or has a UDP port with endpoints;
 * - it lists the node's conntrack entries and, for every UDP service port with at least one
 *   serving endpoint (`IsServing()`: traffic policy, topology and terminating state are
 *   deliberately ignored), deletes the UDP entries whose original destination is a frontend of
 *   the port (ClusterIP:port, a LoadBalancer VIP:port, an externalIP:port, or any address with
 *   its NodePort) and whose reply source (the DNATed backend, `ip:port`) is not one of them:
 *   entries stuck to a deleted pod, and entries created while the Service had no endpoints;
 * - a Service without serving endpoints is left alone ("does not require to clean").
 *
 * TCP (and SCTP) entries are never deleted: an established connection keeps its DNAT to the
 * old pod. Deletions go through netlink (ctnetlink IPCTNL_MSG_CT_DELETE), so `conntrack -E`
 * shows them as [DESTROY] with kube-proxy's netlink port id.
 */
import type { TraceStep } from '../../protocol/trace';
import type { Cluster, EndpointSlice } from '../model/cluster';
import { ctDelete, IPS, listLine, type CtEntry, type PortTuple } from '../conntrack';
import { nodeConntrack } from '../datapath';
import { buildEndpointsMap, buildServicePorts, endpointsFor } from '../kube-proxy';
import { recordAgentSteps } from './network';
import type { World } from './world';

/**
 * The netlink port id of kube-proxy's requests: netlink_autobind() gives a socket the PID of
 * its process in the caller's PID namespace, and kube-proxy is PID 1 of its container.
 */
export const KUBE_PROXY_NETLINK_PORTID = 1;

function sliceGroups(slices: readonly EndpointSlice[]): Map<string, EndpointSlice[]> {
  const groups = new Map<string, EndpointSlice[]>();
  for (const s of slices) {
    const key = `${s.meta.namespace}/${s.serviceName}`;
    const list = groups.get(key);
    if (list) list.push(s);
    else groups.set(key, [s]);
  }
  return groups;
}

const sliceData = (list: readonly EndpointSlice[] | undefined): string =>
  JSON.stringify((list ?? []).map((s) => [s.meta.name, s.endpoints, s.ports]));

/** The Service's endpoints map has a UDP service port (a UDP slice port with an endpoint). */
const hasUdpEndpoints = (list: readonly EndpointSlice[] | undefined): boolean =>
  (list ?? []).some(
    (s) =>
      s.endpoints.some((e) => e.addresses.length > 0) &&
      s.ports.some((p) => p.protocol === 'UDP' && p.port !== 0),
  );

/** `endpointsUpdateResult.ConntrackCleanupRequired` for the change prev → next. */
export function conntrackCleanupRequired(prev: Cluster, next: Cluster): boolean {
  const a = prev.endpointSlices;
  const b = next.endpointSlices;
  if (a === b) return false;
  // Usually most slices are the very same objects at the same places: only the Services of
  // the others need a closer look (a list of another length gets the full comparison).
  let suspects: EndpointSlice[] | undefined;
  if (a.length === b.length) {
    suspects = [];
    for (let i = 0; i < a.length; i++) {
      const x = a[i]!;
      const y = b[i]!;
      if (x !== y && sliceData([x]) !== sliceData([y])) suspects.push(x, y);
    }
    if (suspects.length === 0) return false;
  }
  const sameService = (s: EndpointSlice, t: EndpointSlice) =>
    s.serviceName === t.serviceName && s.meta.namespace === t.meta.namespace;
  // A name lookup first: of ten thousand slices, only the suspects' few get the closer look.
  const names = new Set(suspects?.map((t) => t.serviceName));
  const only = (list: readonly EndpointSlice[]) =>
    suspects === undefined
      ? list
      : list.filter((s) => names.has(s.serviceName) && suspects.some((t) => sameService(s, t)));
  const before = sliceGroups(only(a));
  const after = sliceGroups(only(b));
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key);
    const b = after.get(key);
    if (a?.length === b?.length && (a ?? []).every((s, i) => s === b?.[i])) continue;
    if (!hasUdpEndpoints(a) && !hasUdpEndpoints(b)) continue;
    if (sliceData(a) !== sliceData(b)) return true;
  }
  return false;
}

/**
 * One UDP service port as CleanStaleEntries filters by it: its frontends (`ip:port`), its
 * NodePort (0: none) and its serving endpoints (`ip:port`).
 */
export interface StaleUdpFilter {
  readonly frontends: readonly string[];
  readonly nodePort: number;
  readonly serving: readonly string[];
}

/** The filters of CleanStaleEntries on `nodeName` once its kube-proxy synced to `cluster`. */
export function staleUdpFilters(cluster: Cluster, nodeName: string): StaleUdpFilter[] {
  const endpointsMap = buildEndpointsMap(cluster, nodeName);
  const filters: StaleUdpFilter[] = [];
  for (const info of buildServicePorts(cluster)) {
    if (info.protocol !== 'UDP') continue;
    const serving = endpointsFor(endpointsMap, info)
      .filter((ep) => ep.serving)
      .map((ep) => ep.endpoint);
    if (serving.length === 0) continue;
    const frontends = [info.clusterIP, ...info.loadBalancerVIPs, ...info.externalIPs].map(
      (ip) => `${ip}:${info.port}`,
    );
    filters.push({ frontends, nodePort: info.nodePort, serving });
  }
  return filters;
}

/**
 * Whether a UDP entry (original destination, reply source) is stale by `filters`: its
 * destination is a frontend of a port, or any address with its NodePort, and its backend is
 * not one of that port's serving endpoints.
 */
export function isStaleUdpEntry(
  filters: readonly StaleUdpFilter[],
  origDst: string,
  origDport: number,
  backend: string,
): boolean {
  return staleUdpTest(filters)(origDst, origDport, backend);
}

/** {@link isStaleUdpEntry} with the filters indexed once, for many entries. */
function staleUdpTest(
  filters: readonly StaleUdpFilter[],
): (origDst: string, origDport: number, backend: string) => boolean {
  const byFrontend = new Map<string, Set<string>[]>();
  const byNodePort = new Map<number, Set<string>[]>();
  const add = <K>(m: Map<K, Set<string>[]>, k: K, serving: Set<string>) => {
    const list = m.get(k);
    if (list === undefined) m.set(k, [serving]);
    else list.push(serving);
  };
  for (const f of filters) {
    const serving = new Set(f.serving);
    for (const frontend of f.frontends) add(byFrontend, frontend, serving);
    if (f.nodePort !== 0) add(byNodePort, f.nodePort, serving);
  }
  return (origDst, origDport, backend) =>
    [
      ...(byFrontend.get(`${origDst}:${origDport}`) ?? []),
      ...(byNodePort.get(origDport) ?? []),
    ].some((serving) => !serving.has(backend));
}

/**
 * CleanStaleEntries on one node after its kube-proxy synced to `cluster`. When the node records
 * its kernel operations, the filters are recorded too (a real node's table is filtered by them).
 */
export function cleanStaleEntries(world: World, nodeName: string, cluster: Cluster): CtEntry[] {
  const ops = world.kernel(nodeName)?.ops;
  const table = nodeConntrack(world, nodeName);
  const udp: CtEntry[] = [];
  for (const id in table.entries) {
    const e = table.entries[id]!;
    if (e.orig.proto === 'udp' && (e.status & IPS.CONFIRMED) !== 0) udp.push(e);
  }
  // The filters cost a walk of every Service: built only when recorded or needed.
  if (udp.length === 0 && ops === undefined) return [];
  const filters = staleUdpFilters(cluster, nodeName);
  ops?.push({ conntrackCleanup: filters });
  if (udp.length === 0) return [];

  const now = world.clock.now();
  const isStale = staleUdpTest(filters);
  const stale: CtEntry[] = [];
  for (const e of udp) {
    const orig = e.orig as PortTuple;
    const reply = e.reply as PortTuple;
    if (isStale(orig.dst, orig.dport, `${reply.src}:${reply.sport}`)) stale.push(e);
  }
  const steps: { entry: string; id: number; ctstate: 'NEW' | 'ESTABLISHED' }[] = [];
  for (const e of stale) {
    const line = listLine(e, now, false, {});
    if (ctDelete(table, e, now, KUBE_PROXY_NETLINK_PORTID))
      steps.push({
        entry: line,
        id: e.id,
        ctstate: (e.status & IPS.SEEN_REPLY) !== 0 ? 'ESTABLISHED' : 'NEW',
      });
  }
  if (steps.length > 0) {
    recordAgentSteps(world, (first) =>
      steps.map((s, i): TraceStep => ({
        seq: first + i,
        t: now,
        packetId: 0,
        flowId: s.id,
        at: { host: nodeName },
        why: { id: 'kube-proxy.conntrack.cleanup', params: { node: nodeName } },
        kind: 'conntrack',
        event: 'destroy',
        entry: s.entry,
        ctstate: s.ctstate,
      })),
    );
  }
  return stale;
}
