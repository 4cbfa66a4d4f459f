/**
 * The neighbour (ARP) state machine of net/core/neighbour.c as net/ipv4/arp.c configures it,
 * for one device's table: NUD states, timers, probes, and the packets queued while an address
 * resolves. Pure: time comes in as `now` (ms), and who answers a probe is asked of `answer`.
 *
 * - neigh_event_send_probe(): every output through neigh_resolve_output() stamps `used`;
 *   REACHABLE (and DELAY, PROBE) send with the cached address; STALE sends too and becomes
 *   DELAY for delay_first_probe_time; no entry (or FAILED) becomes INCOMPLETE with `probes` =
 *   ucast_solicit and an immediate broadcast probe; INCOMPLETE queues the packet (arp_queue).
 *   The hh fast path of a REACHABLE entry (neigh_hh_output, neigh_hh_bridge) does not stamp
 *   `used`.
 * - neigh_timer_handler(): REACHABLE stays while `confirmed + reachable_time` is ahead, then
 *   becomes DELAY if used within delay_first_probe_time, else STALE (no timer: a STALE entry
 *   waits for its next use); DELAY becomes REACHABLE if confirmed within delay_first_probe_time,
 *   else PROBE (probes = 0); INCOMPLETE and PROBE probe every retrans_time until `probes`
 *   reaches neigh_max_probes() (ucast + app + mcast_solicit, or mcast_resolicit in PROBE):
 *   FAILED, and neigh_invalidate() hands every queued packet to arp_error_report().
 * - arp_solicit(): below ucast_solicit probes the request is unicast to the cached address
 *   (PROBE), else broadcast (INCOMPLETE). A broadcast is answered by whoever owns the address
 *   now; a unicast only by the owner of the cached address (another host drops a frame that is
 *   not for its MAC, PACKET_OTHERHOST). arp_process(): a unicast reply makes the entry
 *   REACHABLE and confirms it (neigh_update; the queue is flushed).
 *
 * The lab does not put the ARP frames themselves on the wire and an answer takes no virtual
 * time (the kernel's takes microseconds). Entries are not garbage collected: neigh_periodic_work
 * leaves tables below gc_thresh1 (128 entries) alone.
 */

/** NUD states (include/uapi/linux/neighbour.h) an entry of the lab takes (NONE: just created). */
export type NudState = 'NONE' | 'INCOMPLETE' | 'REACHABLE' | 'STALE' | 'DELAY' | 'PROBE' | 'FAILED';

/** A device's neighbour parameters (net.ipv4.neigh.DEV.*), in ms and probe counts. */
export interface NeighParams {
  /** neigh_rand_reach_time(base_reachable_time): drawn in [base/2, 3·base/2) per device. */
  readonly reachableMs: number;
  readonly delayFirstProbeMs: number;
  readonly retransMs: number;
  readonly ucastProbes: number;
  readonly mcastProbes: number;
  readonly appProbes: number;
  readonly mcastReprobes: number;
}

/**
 * arp_tbl's defaults (net/ipv4/arp.c), as `sysctl net.ipv4.neigh.default` prints them in a
 * fresh network namespace: base_reachable_time_ms 30000, delay_first_probe_time 5,
 * retrans_time_ms 1000, ucast_solicit 3, mcast_solicit 3, app_solicit 0, mcast_resolicit 0.
 */
export const ARP_BASE_REACHABLE_MS = 30_000;
export const ARP_DEFAULTS: Omit<NeighParams, 'reachableMs'> = {
  delayFirstProbeMs: 5_000,
  retransMs: 1_000,
  ucastProbes: 3,
  mcastProbes: 3,
  appProbes: 0,
  mcastReprobes: 0,
};

/** neigh_rand_reach_time(): `base/2 + u32 % base`, from a 32-bit random value. */
export function randReachTime(base: number, u32: number): number {
  return base === 0 ? 0 : (base >> 1) + (u32 % base);
}

export interface NeighEntry<Q> {
  readonly ip: string;
  state: NudState;
  /** The cached link-layer address (absent until the first answer). */
  lladdr: string | undefined;
  confirmed: number;
  used: number;
  updated: number;
  probes: number;
  /** When neigh_timer_handler runs next (absolute ms), if the state has a timer. */
  timer: number | undefined;
  /** Packets waiting for resolution (arp_queue). */
  queue: Q[];
}

/** Who answers a probe: `undefined` for the broadcast (anyone owning the address) or a MAC. */
export type Answer = (target: string | undefined) => string | undefined;

/** What a state change leaves the caller to do with the queue. */
export type QueueFate = 'none' | 'flush' | 'fail';

export function newEntry<Q>(ip: string, now: number): NeighEntry<Q> {
  return {
    ip,
    state: 'NONE',
    lladdr: undefined,
    confirmed: now,
    used: now,
    updated: now,
    probes: 0,
    timer: undefined,
    queue: [],
  };
}

/** neigh_max_probes(). */
function maxProbes(p: NeighParams, state: NudState): number {
  return p.ucastProbes + p.appProbes + (state === 'PROBE' ? p.mcastReprobes : p.mcastProbes);
}

/** neigh_update(…, NUD_REACHABLE) from an ARP reply: confirmed, connected, queue flushed. */
function reachable<Q>(e: NeighEntry<Q>, p: NeighParams, mac: string, now: number): QueueFate {
  e.state = 'REACHABLE';
  e.lladdr = mac;
  e.confirmed = now;
  e.updated = now;
  e.timer = now + p.reachableMs;
  return e.queue.length > 0 ? 'flush' : 'none';
}

/** neigh_probe() → arp_solicit(): one request, and its answer if somebody gives one. */
function probe<Q>(e: NeighEntry<Q>, p: NeighParams, now: number, answer: Answer): QueueFate {
  const unicast = e.probes < p.ucastProbes && e.lladdr !== undefined;
  e.probes += 1;
  const mac = answer(unicast ? e.lladdr : undefined);
  return mac === undefined ? 'none' : reachable(e, p, mac, now);
}

/**
 * neigh_event_send_probe(): an output through the entry. `send`: the packet leaves now with
 * `e.lladdr`; `queue`: the caller appends it to `e.queue`.
 */
export function eventSend<Q>(
  e: NeighEntry<Q>,
  p: NeighParams,
  now: number,
  answer: Answer,
): 'send' | 'queue' {
  if (e.state === 'REACHABLE') return 'send'; // the hh cache: `used` is not stamped
  e.used = now;
  if (e.state === 'DELAY' || e.state === 'PROBE') return 'send';
  if (e.state === 'STALE') {
    e.state = 'DELAY';
    e.updated = now;
    e.timer = now + p.delayFirstProbeMs;
    return 'send';
  }
  if (e.state === 'NONE' || e.state === 'FAILED') {
    // __neigh_event_send(): INCOMPLETE, probes = ucast_solicit, an immediate probe.
    e.state = 'INCOMPLETE';
    e.probes = p.ucastProbes;
    e.updated = now;
    e.timer = now + Math.max(p.retransMs, 10);
    probe(e, p, now, answer);
  }
  // probe() may have made it REACHABLE (an immediate answer).
  return (e.state as NudState) === 'REACHABLE' ? 'send' : 'queue';
}

/** neigh_confirm() (dst_confirm_neigh: TCP forward progress of a local socket). */
export function confirm<Q>(e: NeighEntry<Q>, now: number): void {
  e.confirmed = now;
}

/** neigh_timer_handler() at `now` (the entry's timer is due). */
export function timerFires<Q>(
  e: NeighEntry<Q>,
  p: NeighParams,
  now: number,
  answer: Answer,
): QueueFate {
  let next: number | undefined;
  if (e.state === 'REACHABLE') {
    if (now <= e.confirmed + p.reachableMs) {
      next = e.confirmed + p.reachableMs;
    } else if (now <= e.used + p.delayFirstProbeMs) {
      e.state = 'DELAY';
      e.updated = now;
      next = now + p.delayFirstProbeMs;
    } else {
      e.state = 'STALE';
      e.updated = now;
    }
  } else if (e.state === 'DELAY') {
    if (now <= e.confirmed + p.delayFirstProbeMs) {
      e.state = 'REACHABLE';
      e.updated = now;
      next = e.confirmed + p.reachableMs;
    } else {
      e.state = 'PROBE';
      e.updated = now;
      e.probes = 0;
      next = now + Math.max(p.retransMs, 10);
    }
  } else {
    next = now + Math.max(p.retransMs, 10);
  }
  const probing = e.state === 'INCOMPLETE' || e.state === 'PROBE';
  if (probing && e.probes >= maxProbes(p, e.state)) {
    e.state = 'FAILED';
    e.updated = now;
    e.timer = undefined;
    return e.queue.length > 0 ? 'fail' : 'none';
  }
  // "if (time_before(next, jiffies + HZ/100)) next = jiffies + HZ/100": at least 10 ms on.
  e.timer = next === undefined ? undefined : Math.max(next, now + 10);
  return probing ? probe(e, p, now, answer) : 'none';
}
