/**
 * The datapath: one IPv4 packet moved through the lab's hosts as the Linux kernel moves it —
 * pods' veths, the nodes' cni0 bridge with br_netfilter, the nodes' IP layer with netfilter
 * (iptables as kubelet and kube-proxy programmed it), conntrack and NAT, the LAN — until it
 * reaches a host's socket layer, is dropped, or is answered by a node's kernel (REJECT).
 *
 * ```ts
 * const { steps, outcome } = sendPacket(world, { kind: 'pod', namespace: 'default', name: 'client' }, {
 *   src: '10.244.0.5', dst: '10.96.1.1', proto: 'tcp', sport: 43812, dport: 80,
 *   tcpFlags: 'S', length: 60, mark: 0,
 * });
 * if (outcome.kind === 'delivered') {
 *   // the socket layer of outcome.host answers: sendPacket(world, outcome.host, synAck)
 * }
 * ```
 *
 * Synchronous and deterministic: time is the World's virtual clock (nothing advances it here),
 * randomness (iptables statistic, NAT ports) the World's seeded Rng. State changed: each node's
 * conntrack table and rule counters, the capture log, the per-node walk store.
 */
import type { Explanation, PacketHeader, TraceStep } from '../../protocol/trace';
import type { HostRef } from '../routing';
import type { NeighbourRow } from '../routing/ip-neigh';
import type { World } from '../sim/world';
import {
  fireNeighbourTimers,
  nextNeighbourTimer as nextNodeNeighbourTimer,
  nodeNeighbours,
} from './arp';
import { bridgeInput } from './bridge';
import { dropped } from './hooks';
import { hostOutput, hostReceive } from './hosts';
import { nodeOutput, nodeReceive } from './ipv4';
import { podAnswer, transmit } from './link';
import { firePodNeighbourTimers, nextPodNeighbourTimer, podNeighbours } from './pod-arp';
import { effectiveHost } from './bridge-ports';
import { withField } from './header-copy';
import { DEFAULT_TTL, hostLabel, newSkb } from './packet';
import { place, Recorder, why, type TraceDetail } from './recorder';
import { reject } from './reject';
import { datapathState } from './state';
import type { Ctx, Outcome, Stack } from './types';

export type { DropReason, Outcome } from './types';
export type { RuleSteps, TraceDetail } from './recorder';
export {
  CAPTURE_LIMIT,
  captureLog,
  clearCaptureLog,
  datapathState,
  hairpinFlag,
  lastCaptureSeq,
  nodeConntrack,
  nodeDatapath,
  setHairpinFlag,
  type CaptureRecord,
  type DatapathState,
  type NodeDatapath,
} from './state';
export { formatTcpFlags, hostLabel, parseTcpFlags } from './packet';
export { effectiveHost } from './bridge-ports';
export { linkMacs } from './link-header';
export { fdbLearned } from './bridge-fdb';
export type { LinkFrame } from './capture-ring';
export { kernelNet } from './net';
export { DATAPATH_MESSAGES, explainText } from './messages';

export interface SendOptions {
  /** The `seq` of the first step returned (to continue a trace); default 0. */
  readonly firstSeq?: number;
  /**
   * Which iptables rule steps to record: every evaluated rule (default), matched ones, none;
   * `off` records no step at all (the packet takes the same path).
   */
  readonly detail?: TraceDetail;
  /** The packet is an exact retransmission (conntrack's TCP window tracking looks at it). */
  readonly retransmission?: boolean;
  /**
   * Why the host sends it, when more than "it sends" (a reset: the segment no socket took);
   * `{host}` is filled in with the sender.
   */
  readonly why?: Explanation;
}

export interface SendResult {
  /** The trace of this packet (and of the node's answer, when a REJECT answered it). */
  readonly steps: TraceStep[];
  readonly outcome: Outcome;
  /** The trace packet id given to the packet. */
  readonly packetId: number;
}

const STACK: Stack = { transmit, nodeReceive, nodeOutput, bridgeInput, hostReceive, reject };

/**
 * Per World, what every run shares: the packet id allocator and, with the trace off, one
 * Recorder (it records nothing: its steps stay empty), rather than new ones per packet.
 */
interface Shared {
  readonly packetIds: () => number;
  readonly off: Recorder;
}
const shared = new WeakMap<World, Shared>();

function sharedOf(world: World): Shared {
  let s = shared.get(world);
  if (s === undefined) {
    // The World's datapath state is made once and never replaced: the allocator keeps it.
    const dp = datapathState(world);
    s = {
      packetIds: () => dp.nextPacketId++,
      off: new Recorder(world, 0, 'none', false),
    };
    shared.set(world, s);
  }
  return s;
}

/**
 * A run's context: the Recorder at `detail` whose first step is `firstSeq`, and the World's
 * packet id allocator (datapathState's nextPacketId), from one lookup of the World's Shared.
 */
function runCtx(world: World, detail: TraceDetail, firstSeq: number): Ctx {
  const s = sharedOf(world);
  const rec = detail === 'off' ? s.off : new Recorder(world, firstSeq, detail, true);
  return { world, rec, stack: STACK, hops: 0, newPacketId: s.packetIds };
}

/**
 * Host `from` sends `packet` (a node's own process, a pod, an external client; a hostNetwork
 * pod sends as its node). `src` 0.0.0.0 lets routing choose the source address; an absent
 * `ttl` is 64. The socket layer calls this again for every answer it makes.
 */
export function sendPacket(
  world: World,
  from: HostRef,
  packet: PacketHeader,
  opts: SendOptions = {},
): SendResult {
  const ctx = runCtx(world, opts.detail ?? 'all', opts.firstSeq ?? 0);
  const rec = ctx.rec;
  const skb = newSkb(
    ctx.newPacketId(),
    // Headers are never changed in place (a rewrite makes a new one): the sender's is kept.
    packet.ttl !== undefined ? packet : withField(packet, 'ttl', DEFAULT_TTL),
    opts.retransmission === true,
  );
  const host = effectiveHost(world.cluster, from);
  if (rec.on)
    rec.add(skb, {
      kind: 'send',
      at: place(from),
      why:
        opts.why === undefined
          ? why('datapath.send', { host: hostLabel(from) })
          : why(opts.why.id, { ...opts.why.params, host: hostLabel(from) }),
      packet: skb.header,
    });
  let outcome: Outcome;
  if (host === undefined) {
    outcome = dropped(ctx, from, skb, undefined, 'no-route', why('datapath.drop.no-host'));
  } else if (host.kind === 'node') {
    outcome = nodeOutput(ctx, host.name, skb);
  } else {
    outcome = hostOutput(ctx, host, skb);
  }
  return { steps: rec.steps, outcome, packetId: skb.id };
}

export interface KernelTimersResult {
  readonly steps: TraceStep[];
  /** Where each packet the timers released (or answered) ended. */
  readonly outcomes: Outcome[];
}

/**
 * The nodes' neighbour timers due at the World's current time (neigh_timer_handler): probes,
 * state changes, queued packets sent once their next hop answers, or answered with ICMP host
 * unreachable once it never did.
 */
export function runNeighbourTimers(world: World, opts: SendOptions = {}): KernelTimersResult {
  const ctx = runCtx(world, opts.detail ?? 'all', opts.firstSeq ?? 0);
  const rec = ctx.rec;
  const outcomes = fireNeighbourTimers(ctx);
  outcomes.push(...firePodNeighbourTimers(ctx, (pod, ip) => podAnswer(ctx, pod, ip)));
  return { steps: rec.steps, outcomes };
}

/** The earliest neighbour timer of the World (the nodes' cni0 tables and the pods'). */
export function nextNeighbourTimer(world: World): number | undefined {
  const node = nextNodeNeighbourTimer(world);
  const pod = nextPodNeighbourTimer(world);
  return node === undefined || (pod !== undefined && pod < node) ? pod : node;
}

/**
 * The neighbour entries the lab keeps for `host` (`ip neigh`): a node's cni0 table, a pod's
 * unanswered addresses; an external client keeps none.
 */
export function hostNeighbours(world: World, host: HostRef): NeighbourRow[] {
  if (host.kind === 'node') return nodeNeighbours(world, host.name);
  if (host.kind === 'pod') return podNeighbours(world, host);
  return [];
}
