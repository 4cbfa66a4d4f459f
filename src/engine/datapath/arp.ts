/**
 * Each node's neighbour table on cni0 (arp_tbl, ./neighbour.ts): how the node finds the MAC of a
 * pod it routes or bridged-DNATs a packet to, and what happens when that pod is gone.
 *
 * - The node resolves a pod address by ARP; the pod's reply teaches cni0's fdb its MAC
 *   (./bridge-fdb.ts). While the entry is REACHABLE, STALE, DELAY or PROBE the node sends to the
 *   cached MAC, whoever owns the address now: after a pod's deletion its frames are flooded.
 * - A packet meeting an INCOMPLETE entry waits in the entry's queue. If a pod answers, it is
 *   sent; if the probes go unanswered the entry is FAILED and neigh_invalidate() hands each
 *   queued packet to arp_error_report() → dst_link_failure() → ipv4_link_failure() →
 *   icmp_send(ICMP_DEST_UNREACH, ICMP_HOST_UNREACH): the node answers "host unreachable",
 *   which conntrack relates to the packet's connection and un-NATs on the way out.
 * - reachable_time: neigh_rand_reach_time() draws it per device in [15 s, 45 s) (and again every
 *   300 s, not modelled). The lab derives it from the lab's seed and the node's name (a hash,
 *   not a draw of the World's random source, so no other seeded draw moves).
 *
 * Not modelled: pods' and the LAN's neighbour tables (pods and LAN hosts resolve at once, as if
 * the entry were fresh; except a pod's address that nobody answers, ./pod-arp.ts), confirmations
 * by the node's own TCP sockets (dst_confirm: they only keep a live pod's entry REACHABLE, which
 * changes no packet), and ARP frames in captures. `ip neigh` lists the entries kept here.
 */
import type { NeighbourRow } from '../routing/ip-neigh';
import { randomLocalMac } from '../routing/naming';
import type { World } from '../sim/world';
import { fdbLearn, podMac } from './bridge-fdb';
import { dropped, nodeCtx } from './hooks';
import { podByIp } from './bridge-ports';
import {
  ARP_BASE_REACHABLE_MS,
  ARP_DEFAULTS,
  eventSend,
  newEntry,
  randReachTime,
  timerFires,
  type Answer,
  type NeighEntry,
  type NeighParams,
  type NudState,
} from './neighbour';
import type { Skb } from './packet';
import { why } from './recorder';
import { sendIcmpUnreachable } from './reject';
import type { Ctx, Outcome } from './types';

/** A packet waiting for its next hop's MAC, and how its journey goes on once it is known. */
export interface Pending {
  readonly skb: Skb;
  /** The device it came in on (icmp_errors_use_inbound_ifaddr), if it was forwarded. */
  readonly inIface: string | undefined;
  resume(ctx: Ctx, mac: string): Outcome;
}

interface NodeNeigh {
  readonly params: NeighParams;
  readonly entries: Map<string, NeighEntry<Pending>>;
}

const tables = new WeakMap<World, Map<string, NodeNeigh>>();

/**
 * FNV-1a of a string: where the kernel draws a random number that must not move the World's
 * seeded draws (the per-device reachable_time, a packet's trace id).
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function tableOf(world: World, node: string): NodeNeigh {
  let byNode = tables.get(world);
  if (byNode === undefined) {
    byNode = new Map();
    tables.set(world, byNode);
  }
  let t = byNode.get(node);
  if (t === undefined) {
    const u32 = fnv1a(`${world.cluster.lab.seed}/${node}/cni0`);
    t = {
      params: { ...ARP_DEFAULTS, reachableMs: randReachTime(ARP_BASE_REACHABLE_MS, u32) },
      entries: new Map(),
    };
    byNode.set(node, t);
  }
  return t;
}

/**
 * The eth0 MAC (as `ip link` shows it) of the pod behind each cached podMac() identity: an entry
 * keeps the MAC of the pod that answered, also once that pod is gone.
 */
const answeredBy = new WeakMap<World, Map<string, string>>();

/** The pod owning `ip` behind `node`'s cni0 answers ARP (its reply teaches the fdb its MAC). */
function answerer(world: World, node: string, ip: string, now: number): Answer {
  return (target) => {
    const bp = podByIp(world.cluster, node, ip);
    if (bp === undefined) return undefined;
    const mac = podMac(bp.pod);
    if (target !== undefined && target !== mac) return undefined;
    fdbLearn(world, node, bp.pod, bp.port, now);
    let macs = answeredBy.get(world);
    if (macs === undefined) answeredBy.set(world, (macs = new Map()));
    // topology.ts names a pod's eth0 MAC after its namespace and name.
    macs.set(mac, randomLocalMac(`veth-pod:${bp.pod.meta.namespace}/${bp.pod.meta.name}`));
    return mac;
  };
}

/**
 * `node`'s cni0 entries as `ip neigh` lists them, in the order they were made. An entry just
 * made (NONE) is never seen: neigh_event_send() moves it on in the same call.
 */
export function nodeNeighbours(world: World, node: string): NeighbourRow[] {
  const macs = answeredBy.get(world);
  const entries = tables.get(world)?.get(node)?.entries.values() ?? [];
  return [...entries].map((e) => ({
    dst: e.ip,
    dev: 'cni0',
    state: e.state,
    lladdr: e.lladdr === undefined ? undefined : macs?.get(e.lladdr),
  }));
}

export type Resolution =
  | { readonly kind: 'send'; readonly mac: string }
  | { readonly kind: 'queued'; readonly state: NudState };

/**
 * neigh_output()'s hh fast path alone: the MAC of `node`'s REACHABLE cni0 entry for `ip`, or
 * undefined (then cni0Resolve, which starts with the same test): the common case asks nothing
 * else and builds no pending packet.
 */
export function cni0Reachable(ctx: Ctx, node: string, ip: string): string | undefined {
  const e = tableOf(ctx.world, node).entries.get(ip);
  return e?.state === 'REACHABLE' ? e.lladdr! : undefined;
}

/** neigh_output() on `node`'s cni0 for next hop `ip`: the MAC to send to, or queued. */
export function cni0Resolve(ctx: Ctx, node: string, ip: string, pending: Pending): Resolution {
  const world = ctx.world;
  const t = tableOf(world, node);
  let e = t.entries.get(ip);
  // The hh fast path: a REACHABLE entry sends at once, nothing stamped.
  if (e?.state === 'REACHABLE') return { kind: 'send', mac: e.lladdr! };
  const now = world.clock.now();
  if (e === undefined) {
    e = newEntry<Pending>(ip, now);
    t.entries.set(ip, e);
  }
  if (eventSend(e, t.params, now, answerer(world, node, ip, now)) === 'send')
    return { kind: 'send', mac: e.lladdr! };
  // arp_queue: bounded by unres_qlen_bytes (212992 bytes of truesize, about a hundred small
  // packets); the lab's queues hold a few retransmissions at most and are not bounded.
  e.queue.push(pending);
  return { kind: 'queued', state: e.state };
}

/** The trace's end of a packet that waits in the ARP queue (it goes on, or is answered, later). */
export function queuedOutcome(
  ctx: Ctx,
  node: string,
  skb: Skb,
  ip: string,
  state: string,
): Outcome {
  return dropped(
    ctx,
    { kind: 'node', name: node },
    skb,
    'cni0',
    'neighbour',
    why('datapath.neigh.queued', { ip, iface: 'cni0', state }),
    'LOST',
  );
}

/** The earliest neighbour timer of the World, if any. */
export function nextNeighbourTimer(world: World): number | undefined {
  let next: number | undefined;
  for (const t of tables.get(world)?.values() ?? [])
    for (const e of t.entries.values())
      if (e.timer !== undefined && (next === undefined || e.timer < next)) next = e.timer;
  return next;
}

/** Runs every neighbour timer due now; returns where the packets they released ended. */
export function fireNeighbourTimers(ctx: Ctx): Outcome[] {
  const world = ctx.world;
  const now = world.clock.now();
  const outcomes: Outcome[] = [];
  for (const [node, t] of tables.get(world) ?? []) {
    for (const e of t.entries.values()) {
      if (e.timer === undefined || e.timer > now) continue;
      const fate = timerFires(e, t.params, now, answerer(world, node, e.ip, now));
      if (fate === 'none') continue;
      const queue = e.queue;
      e.queue = [];
      for (const p of queue) {
        outcomes.push(
          fate === 'flush' ? p.resume(ctx, e.lladdr!) : hostUnreachable(ctx, node, e.ip, p),
        );
      }
    }
  }
  return outcomes;
}

/** arp_error_report(): ICMP host unreachable for a packet whose next hop never answered. */
function hostUnreachable(ctx: Ctx, nodeName: string, ip: string, p: Pending): Outcome {
  const node = nodeCtx(ctx, nodeName);
  const skb = p.skb;
  ctx.rec.verdict(
    skb,
    { host: nodeName, iface: 'cni0' },
    'LOST',
    why('datapath.neigh.failed', { ip, iface: 'cni0' }),
  );
  if (node === undefined) {
    return {
      kind: 'dropped',
      host: { kind: 'node', name: nodeName },
      reason: 'neighbour',
      why: why('datapath.drop.no-host'),
    };
  }
  return sendIcmpUnreachable(ctx, node, skb, 1, { local: false, inIface: p.inIface });
}
