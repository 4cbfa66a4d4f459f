/**
 * A pod's neighbour entries for addresses of its own subnet that nobody answers (arp_tbl on the
 * pod's eth0, ./neighbour.ts): a pod sending straight to such an address (a deleted pod's IP,
 * say) probes it, queues the packet, and after mcast_solicit (3) unanswered probes a second
 * apart the entry is FAILED; neigh_invalidate() hands each queued packet to arp_error_report(),
 * which makes the pod's own kernel send itself ICMP host unreachable (over lo). A connecting
 * TCP socket takes it as a hard error (tcp_v4_err in SYN-SENT: EHOSTUNREACH): on a real pod,
 * `curl` to such an address fails with exit code 7 after about 3 s (checked on Linux).
 *
 * Only unanswered addresses are tracked: an address a pod or the bridge answers for resolves at
 * once (the lab does not model a pod's cache of live neighbours). So a pod that learned a
 * neighbour's MAC (arp_process() on that neighbour's ARP request: a STALE entry) and then sends
 * to it once it is gone probes afresh here, where Linux sends to the old MAC through DELAY
 * (5 s) and PROBE before the entry fails.
 */
import type { PacketHeader } from '../../protocol/trace';
import type { HostRef } from '../routing';
import type { NeighbourRow } from '../routing/ip-neigh';
import type { World } from '../sim/world';
import { dropped } from './hooks';
import {
  ARP_BASE_REACHABLE_MS,
  ARP_DEFAULTS,
  eventSend,
  newEntry,
  timerFires,
  type Answer,
  type NeighEntry,
  type NeighParams,
} from './neighbour';
import { hostNet, primaryAddress } from './net';
import { hostLabel, newSkb, type Skb } from './packet';
import { place, why } from './recorder';
import { ICMP_ERRORS, icmpLength, quotedHeader } from './reject';
import type { Ctx, Outcome } from './types';

/** A packet of the pod's waiting for its next hop's MAC. */
export interface PodPending {
  readonly skb: Skb;
  resume(ctx: Ctx): Outcome;
}

interface PodNeigh {
  readonly pod: HostRef;
  readonly entries: Map<string, NeighEntry<PodPending>>;
}

/** Pods' eth0 take arp_tbl's defaults; reachable_time plays no part for unanswered entries. */
const PARAMS: NeighParams = { ...ARP_DEFAULTS, reachableMs: ARP_BASE_REACHABLE_MS };

const tables = new WeakMap<World, Map<string, PodNeigh>>();

function tableOf(world: World, pod: HostRef): PodNeigh {
  let byPod = tables.get(world);
  if (byPod === undefined) tables.set(world, (byPod = new Map()));
  const key = hostLabel(pod);
  let t = byPod.get(key);
  if (t === undefined) byPod.set(key, (t = { pod, entries: new Map() }));
  return t;
}

/**
 * neigh_output() on the pod's eth0 for `ip`, which nobody answered when the packet left: the
 * packet waits in the entry's queue (true), or an answer came meanwhile (false: send it).
 */
export function podQueue(
  ctx: Ctx,
  pod: HostRef,
  ip: string,
  answer: Answer,
  pending: PodPending,
): boolean {
  const now = ctx.world.clock.now();
  const t = tableOf(ctx.world, pod);
  let e = t.entries.get(ip);
  if (e === undefined) t.entries.set(ip, (e = newEntry<PodPending>(ip, now)));
  if (eventSend(e, PARAMS, now, answer) === 'send') {
    t.entries.delete(ip);
    return false;
  }
  e.queue.push(pending);
  return true;
}

/**
 * `pod`'s eth0 entries as `ip neigh` lists them (unanswered addresses only: INCOMPLETE while
 * probing, then FAILED), in the order they were made.
 */
export function podNeighbours(world: World, pod: HostRef): NeighbourRow[] {
  const entries = tables.get(world)?.get(hostLabel(pod))?.entries.values() ?? [];
  return [...entries].map((e) => ({ dst: e.ip, dev: 'eth0', state: e.state, lladdr: undefined }));
}

/** The earliest pending probe or failure of any pod's entries. */
export function nextPodNeighbourTimer(world: World): number | undefined {
  let next: number | undefined;
  for (const t of tables.get(world)?.values() ?? [])
    for (const e of t.entries.values())
      if (e.timer !== undefined && (next === undefined || e.timer < next)) next = e.timer;
  return next;
}

/** Runs the pods' neighbour timers due now; `answer` says who answers `ip` for `pod` now. */
export function firePodNeighbourTimers(
  ctx: Ctx,
  answer: (pod: HostRef, ip: string) => Answer,
): Outcome[] {
  const now = ctx.world.clock.now();
  const outcomes: Outcome[] = [];
  for (const t of tables.get(ctx.world)?.values() ?? []) {
    for (const [ip, e] of t.entries) {
      if (e.timer === undefined || e.timer > now) continue;
      const fate = timerFires(e, PARAMS, now, answer(t.pod, ip));
      if (fate === 'none') continue;
      const queue = e.queue;
      e.queue = [];
      // An answered entry leaves the table (live neighbours are not cached); a FAILED one
      // stays: the pod's next packet to the address probes again (neigh_event_send).
      if (fate === 'flush') t.entries.delete(ip);
      for (const p of queue)
        outcomes.push(fate === 'flush' ? p.resume(ctx) : hostUnreachable(ctx, t.pod, ip, p.skb));
    }
  }
  return outcomes;
}

/**
 * arp_error_report() → icmp_send(ICMP_HOST_UNREACH) in the pod's own kernel: the error is
 * addressed to the packet's source, the pod itself, and arrives over lo.
 */
function hostUnreachable(ctx: Ctx, pod: HostRef, ip: string, skb: Skb): Outcome {
  ctx.rec.verdict(skb, place(pod, 'eth0'), 'LOST', why('datapath.neigh.failed-local', { ip }));
  const h = skb.header;
  const net = hostNet(ctx.world.cluster, pod);
  const self = net === undefined ? undefined : primaryAddress(net, 'eth0');
  // __icmp_send() answers no ICMP error, but an echo request gets one: ping prints `From SELF
  // icmp_seq=N Destination Host Unreachable` (iputils, checked on Linux).
  const aboutIcmpError = h.proto === 'icmp' && ICMP_ERRORS.has(h.icmp?.type ?? 3);
  if (aboutIcmpError || self === undefined)
    return dropped(ctx, pod, skb, 'eth0', 'neighbour', why('datapath.drop.neighbour', { ip, iface: 'eth0' }), 'LOST'); // prettier-ignore
  const header: PacketHeader = {
    src: self,
    dst: h.src,
    proto: 'icmp',
    icmp: { type: 3, code: 1 },
    length: icmpLength(h.length),
    mark: 0,
    inner: quotedHeader(h),
    ttl: 64,
  };
  const reply = newSkb(ctx.newPacketId(), header);
  ctx.rec.add(reply, {
    kind: 'send',
    at: place(pod, 'lo'),
    why: why('datapath.send.kernel', { host: hostLabel(pod) }),
    packet: header,
  });
  return ctx.stack.hostReceive(ctx, pod, 'lo', reply);
}
