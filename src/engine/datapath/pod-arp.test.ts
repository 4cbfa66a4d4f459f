import { describe, expect, it } from 'vitest';
import type { PacketHeader } from '../../protocol/trace';
import { newSkb } from './packet';
import { firePodNeighbourTimers, nextPodNeighbourTimer, podQueue } from './pod-arp';
import { Recorder } from './recorder';
import { labWorld, podRef, tcp } from './test-fixtures';
import type { Ctx, Outcome } from './types';

/** A Ctx whose stack records what reaches a host instead of running the host's stack. */
function ctxOf(world: ReturnType<typeof labWorld>) {
  const received: { host: string; iface: string; packet: PacketHeader }[] = [];
  const stack = {
    hostReceive: (
      _c: Ctx,
      host: { name: string },
      iface: string,
      skb: { header: PacketHeader },
    ) => {
      received.push({ host: host.name, iface, packet: skb.header });
      return { kind: 'delivered', host, iface, packet: skb.header } as unknown as Outcome;
    },
  } as unknown as Ctx['stack'];
  let id = 1000;
  const ctx: Ctx = {
    world,
    rec: new Recorder(world, 0, 'all', true),
    stack,
    hops: 0,
    newPacketId: () => id++,
  };
  return { ctx, received };
}

describe("a pod's neighbour entry for an address nobody answers", () => {
  it('probes three times a second apart, then its own kernel sends it ICMP host unreachable over lo', () => {
    const world = labWorld();
    const client = podRef(world, 'client');
    const { ctx, received } = ctxOf(world);
    const syn = newSkb(1, tcp(client.ip, 40000, '10.244.0.99', 8080, 'S'));
    let resumed = 0;
    const queued = podQueue(ctx, client, '10.244.0.99', () => undefined, {
      skb: syn,
      resume: () => {
        resumed++;
        return { kind: 'dropped' } as unknown as Outcome;
      },
    });
    expect(queued).toBe(true);
    const start = world.clock.now();
    const timers: number[] = [];
    for (
      let next = nextPodNeighbourTimer(world);
      next !== undefined;
      next = nextPodNeighbourTimer(world)
    ) {
      timers.push(next - start);
      world.advance(next - world.clock.now());
      firePodNeighbourTimers(ctx, () => () => undefined);
      if (timers.length > 10) break;
    }
    // neigh_timer_handler: INCOMPLETE probes at 1 s and 2 s, FAILED at 3 s (mcast_solicit 3).
    expect(timers).toEqual([1000, 2000, 3000]);
    expect(resumed).toBe(0);
    expect(received).toEqual([
      {
        host: client.name,
        iface: 'lo',
        packet: expect.objectContaining({
          src: client.ip,
          dst: client.ip,
          proto: 'icmp',
          icmp: { type: 3, code: 1 },
          inner: expect.objectContaining({
            src: client.ip,
            dst: '10.244.0.99',
            sport: 40000,
            dport: 8080,
          }),
        }),
      },
    ]);
  });

  it('sends the queued packet once the address is answered before the entry fails', () => {
    const world = labWorld();
    const client = podRef(world, 'client');
    const { ctx, received } = ctxOf(world);
    const syn = newSkb(1, tcp(client.ip, 40000, '10.244.0.99', 8080, 'S'));
    let resumed = 0;
    podQueue(ctx, client, '10.244.0.99', () => undefined, {
      skb: syn,
      resume: () => {
        resumed++;
        return { kind: 'dropped' } as unknown as Outcome;
      },
    });
    world.advance(1000);
    // A pod with that address came up and answers the next (broadcast) probe.
    firePodNeighbourTimers(ctx, () => () => 'veth-new');
    expect(resumed).toBe(1);
    expect(received).toEqual([]);
    // Answered entries are not kept: nothing is left to time.
    expect(nextPodNeighbourTimer(world)).toBeUndefined();
  });
});
