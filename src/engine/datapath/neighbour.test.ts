/**
 * The neighbour state machine (./neighbour.ts) against net/core/neighbour.c and net/ipv4/arp.c:
 * neigh_event_send_probe(), neigh_timer_handler(), neigh_max_probes(), arp_solicit().
 */
import { describe, expect, it } from 'vitest';
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
} from './neighbour';

const P: NeighParams = { ...ARP_DEFAULTS, reachableMs: 30_000 };
const OWNER = 'mac-a';
/** The pod owning the address answers both a broadcast and a unicast to its MAC. */
const alive: Answer = (target) => (target === undefined || target === OWNER ? OWNER : undefined);
const gone: Answer = () => undefined;

/** Runs the entry's timers up to `until` (each at its own time), collecting the queue fates. */
function runTimers(e: NeighEntry<string>, until: number, answer: Answer): string[] {
  const fates: string[] = [];
  while (e.timer !== undefined && e.timer <= until) {
    const fate = timerFires(e, P, e.timer, answer);
    if (fate !== 'none') fates.push(`${fate}@${e.updated}`);
  }
  return fates;
}

describe('ARP defaults (sysctl net.ipv4.neigh.default in a fresh namespace)', () => {
  it('match arp_tbl', () => {
    expect(ARP_BASE_REACHABLE_MS).toBe(30_000);
    expect(ARP_DEFAULTS).toEqual({
      delayFirstProbeMs: 5_000,
      retransMs: 1_000,
      ucastProbes: 3,
      mcastProbes: 3,
      appProbes: 0,
      mcastReprobes: 0,
    });
  });

  it('neigh_rand_reach_time() draws in [base/2, 3·base/2)', () => {
    expect(randReachTime(30_000, 0)).toBe(15_000);
    expect(randReachTime(30_000, 29_999)).toBe(44_999);
    expect(randReachTime(30_000, 0xffffffff)).toBe(15_000 + (0xffffffff % 30_000));
    expect(randReachTime(0, 123)).toBe(0);
  });
});

describe('neigh_event_send', () => {
  it('a new entry probes by broadcast at once; an answer makes it REACHABLE and sends', () => {
    const e = newEntry<string>('10.244.0.4', 0);
    expect(e.state).toBe('NONE');
    expect(eventSend(e, P, 100, alive)).toBe('send');
    expect(e).toMatchObject({ state: 'REACHABLE', lladdr: OWNER, confirmed: 100 });
    expect(e.timer).toBe(100 + P.reachableMs);
  });

  it('no answer: INCOMPLETE, the packet queues, FAILED after mcast_solicit broadcasts', () => {
    const e = newEntry<string>('10.244.0.9', 0);
    expect(eventSend(e, P, 0, gone)).toBe('queue');
    e.queue.push('syn');
    // probes start at ucast_solicit (3), +1 for the immediate probe; max = 3 + 0 + 3.
    expect(e).toMatchObject({ state: 'INCOMPLETE', probes: 4, timer: 1_000 });
    expect(runTimers(e, 10_000, gone)).toEqual(['fail@3000']);
    expect(e.state).toBe('FAILED');
    expect(e.probes).toBe(6);
  });

  it('an owner appearing while INCOMPLETE answers a later broadcast: the queue is flushed', () => {
    const e = newEntry<string>('10.244.0.9', 0);
    eventSend(e, P, 0, gone);
    e.queue.push('syn');
    expect(runTimers(e, 1_000, alive)).toEqual(['flush@1000']);
    expect(e.state).toBe('REACHABLE');
  });

  it('STALE sends with the cached address and waits delay_first_probe_time in DELAY', () => {
    const e = newEntry<string>('10.244.0.4', 0);
    eventSend(e, P, 0, alive);
    runTimers(e, 40_000, alive);
    expect(e.state).toBe('STALE'); // not used since: no timer
    expect(e.timer).toBeUndefined();
    expect(eventSend(e, P, 50_000, gone)).toBe('send');
    expect(e).toMatchObject({ state: 'DELAY', used: 50_000, timer: 55_000 });
  });
});

describe('neigh_timer_handler', () => {
  it('REACHABLE becomes STALE after confirmed + reachable_time when not used', () => {
    const e = newEntry<string>('10.244.0.4', 0);
    eventSend(e, P, 0, alive);
    // time_before_eq(now, confirmed + reachable_time): still REACHABLE at the deadline itself,
    // re-armed HZ/100 later.
    runTimers(e, 30_000, alive);
    expect(e).toMatchObject({ state: 'REACHABLE', timer: 30_010 });
    runTimers(e, 30_010, alive);
    expect(e).toMatchObject({ state: 'STALE', updated: 30_010, timer: undefined });
  });

  it('REACHABLE used in the last delay_first_probe_time becomes DELAY, then PROBE', () => {
    const e = newEntry<string>('10.244.0.4', 0);
    eventSend(e, P, 0, alive);
    e.used = 28_000; // neigh_resolve_output stamped it
    runTimers(e, 30_010, alive);
    expect(e).toMatchObject({ state: 'DELAY', timer: 35_010 });
    // Not confirmed within delay_first_probe_time: PROBE, a unicast probe; the owner answers.
    runTimers(e, 35_010, alive);
    expect(e).toMatchObject({ state: 'REACHABLE', confirmed: 35_010, probes: 1 });
  });

  it('DELAY confirmed in time goes back to REACHABLE without probing', () => {
    const e = newEntry<string>('10.244.0.4', 0);
    eventSend(e, P, 0, alive);
    runTimers(e, 30_010, alive);
    eventSend(e, P, 40_000, gone); // STALE → DELAY
    e.confirmed = 42_000; // neigh_confirm(): TCP forward progress
    runTimers(e, 45_000, gone);
    expect(e).toMatchObject({ state: 'REACHABLE', timer: 42_000 + P.reachableMs });
  });

  it('the owner gone: DELAY, three unanswered unicast probes, FAILED (5 s + 3 × 1 s)', () => {
    const e = newEntry<string>('10.244.0.4', 0);
    eventSend(e, P, 0, alive);
    runTimers(e, 30_010, alive);
    expect(eventSend(e, P, 31_000, gone)).toBe('send'); // STALE → DELAY, sent to the old MAC
    expect(runTimers(e, 36_000, gone)).toEqual([]);
    expect(e).toMatchObject({ state: 'PROBE', probes: 1, timer: 37_000 });
    expect(eventSend(e, P, 36_500, gone)).toBe('send'); // PROBE still sends to the old MAC
    runTimers(e, 60_000, gone);
    expect(e).toMatchObject({ state: 'FAILED', updated: 39_000, timer: undefined });
    // Nothing was queued in PROBE: no error to report. The next packet starts INCOMPLETE,
    // queues, and is reported 3 s later.
    expect(eventSend(e, P, 40_000, gone)).toBe('queue');
    e.queue.push('retransmission');
    expect(runTimers(e, 60_000, gone)).toEqual(['fail@43000']);
  });

  it('a unicast probe is answered only by the cached MAC (another owner drops it)', () => {
    const e = newEntry<string>('10.244.0.4', 0);
    eventSend(e, P, 0, alive);
    runTimers(e, 30_010, alive);
    const newOwner: Answer = (t) => (t === undefined || t === 'mac-b' ? 'mac-b' : undefined);
    eventSend(e, P, 31_000, newOwner);
    runTimers(e, 40_000, newOwner);
    expect(e.state).toBe('FAILED');
    // Then the broadcast of a fresh resolution finds the new owner.
    expect(eventSend(e, P, 41_000, newOwner)).toBe('send');
    expect(e.lladdr).toBe('mac-b');
  });

  it('re-arms at least 10 ms on (HZ/100) when its deadline is now', () => {
    const e = newEntry<string>('10.244.0.4', 0);
    eventSend(e, P, 0, alive);
    e.confirmed = 10_000; // confirmed after the timer was set
    timerFires(e, P, 40_000, alive);
    expect(e.timer).toBe(40_010);
  });
});
