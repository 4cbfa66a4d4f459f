/**
 * cni0's forwarding database (net/bridge/br_fdb.c): which port a MAC address was last seen on.
 *
 * - br_fdb_update(): br_handle_frame_finish() learns every frame's source MAC on its ingress
 *   port (the entry's `updated` is refreshed).
 * - br_fdb_cleanup(): an entry not refreshed for the bridge's ageing_time (BR_DEFAULT_AGEING_TIME,
 *   300 s; `cat /sys/class/net/cni0/bridge/ageing_time` prints 30000 centiseconds) is deleted;
 *   the cleanup work is scheduled for the next expiry, so an aged entry is as good as gone.
 * - br_fdb_delete_by_port(): a port's entries go with the port (a pod's veth deleted with its
 *   network namespace). The lab checks that the port still leads to the same MAC.
 * - br_handle_frame_finish() / br_dev_xmit(): a unicast frame whose destination MAC has no entry
 *   is flooded (br_flood) to every port with BR_FLOOD (the default) — including back out of the
 *   ingress port if it has the hairpin flag (should_deliver).
 *
 * A pod's eth0 MAC is random per sandbox: the lab names it after the pod object (uid, creation
 * time, address), so a pod recreated under the same name is another MAC.
 */
import type { Cluster, Pod } from '../model/cluster';
import type { World } from '../sim/world';
import { podByIp, type BridgePort } from './bridge-ports';

/** BR_DEFAULT_AGEING_TIME (include/linux/if_bridge.h: 300 * HZ). */
export const FDB_AGEING_MS = 300_000;

interface FdbEntry {
  port: string;
  /** The address of the pod whose MAC it is (how the lab finds that pod again). */
  readonly ip: string;
  updated: number;
  /**
   * The pod found behind the entry for `cluster` (podByIp, checked against the MAC): every
   * frame to a known MAC asks, and the answer holds while the Cluster object (final data: a
   * pod added or deleted makes a new one) and the entry's port and address stay.
   */
  found: { readonly cluster: Cluster; readonly bp: BridgePort } | undefined;
}

const fdbs = new WeakMap<World, Map<string, Map<string, FdbEntry>>>();

function fdbOf(world: World, node: string): Map<string, FdbEntry> {
  let byNode = fdbs.get(world);
  if (byNode === undefined) {
    byNode = new Map();
    fdbs.set(world, byNode);
  }
  let fdb = byNode.get(node);
  if (fdb === undefined) {
    fdb = new Map();
    byNode.set(node, fdb);
  }
  return fdb;
}

const macs = new WeakMap<Pod, string>();

/** The MAC of a pod's eth0 (one per pod object: a new sandbox is a new MAC). */
export function podMac(pod: Pod): string {
  let mac = macs.get(pod);
  if (mac === undefined) {
    mac = `${pod.meta.uid}/${pod.meta.createdAt}/${pod.podIP}`;
    macs.set(pod, mac);
  }
  return mac;
}

/** br_fdb_update(): a frame from `pod`'s MAC came in on `port` at `now`. */
export function fdbLearn(world: World, node: string, pod: Pod, port: string, now: number): void {
  const fdb = fdbOf(world, node);
  const mac = podMac(pod);
  const e = fdb.get(mac);
  if (e === undefined) fdb.set(mac, { port, ip: pod.podIP, updated: now, found: undefined });
  else {
    e.port = port;
    e.updated = now;
  }
}

/**
 * br_fdb_find_rcu(): the port `mac` is behind (and the pod there), if cni0 still knows it: not
 * aged out, the port still there and still leading to that MAC.
 */
export function fdbPort(
  world: World,
  cluster: Cluster,
  node: string,
  mac: string,
  now: number,
): BridgePort | undefined {
  const fdb = fdbOf(world, node);
  const e = fdb.get(mac);
  if (e === undefined) return undefined;
  if (now - e.updated >= FDB_AGEING_MS) {
    fdb.delete(mac);
    return undefined;
  }
  const found = e.found;
  if (found !== undefined && found.cluster === cluster && found.bp.port === e.port) return found.bp;
  // The pod at that address, if it is still the one with that MAC and behind that port.
  const bp = podByIp(cluster, node, e.ip);
  if (bp === undefined || bp.port !== e.port || podMac(bp.pod) !== mac) {
    fdb.delete(mac);
    return undefined;
  }
  e.found = { cluster, bp };
  return bp;
}

/**
 * The entries cni0 learned and still holds at `now` (as fdbPort() keeps them: not aged, the port
 * still leading to the same pod), oldest first, each with the pod whose MAC it is.
 */
export function fdbLearned(
  world: World,
  cluster: Cluster,
  node: string,
  now: number,
): { readonly port: string; readonly pod: Pod }[] {
  const out: { port: string; pod: Pod }[] = [];
  for (const mac of [...fdbOf(world, node).keys()]) {
    const bp = fdbPort(world, cluster, node, mac, now);
    if (bp !== undefined) out.push({ port: bp.port, pod: bp.pod });
  }
  return out;
}
