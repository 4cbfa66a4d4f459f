/**
 * The network in motion: end hosts emit packets, the datapath carries each one through the
 * nodes' kernels, deliveries go back to the receiving host's socket layer, and virtual time
 * advances from timer to timer (retransmissions, timeouts) while a program runs or the lab
 * sleeps. Everything that happened is kept as trace steps.
 */
import type { TraceStep } from '../../protocol/trace';
import { ctExpire } from '../conntrack';
import {
  datapathState,
  effectiveHost,
  nextNeighbourTimer,
  runNeighbourTimers,
  sendPacket,
  type Outcome,
  type TraceDetail,
} from '../datapath';
import {
  closeSocket,
  createHosts,
  hostRefOf,
  hostReceive,
  hostTimers,
  nextWakeup,
  programResult,
  startProgram,
  hostKey,
  stackFor,
  syncHosts,
  type Emitted,
  type HostCtx,
  type HostsState,
  type HostStep,
  type ProgramSpec,
  type SocketEvent,
} from '../hosts';
import type { HostRef } from '../routing/topology';
import { nextControlPlaneEvent, runControlPlaneEvents } from './control-plane';
import { explainDelivery } from './delivery-why';
import type { World } from './world';
import type { StdioWrite } from '../model/stdio';
import { LAB_CLOCK_END_UNIX_SECONDS } from '../model/runtime';

interface NetworkState {
  readonly hosts: HostsState;
  /** The cluster the host stacks were last synced with. */
  syncedWith: World['cluster'];
  /** The latest trace steps (bounded: past TRACE_LIMIT the oldest are dropped, in batches). */
  steps: TraceStep[];
  nextSeq: number;
  /** Which steps packets record (the trace's detail). */
  detail: TraceDetail;
  /** Sees every socket event the hosts raise (the lab's named flows read theirs). */
  tap?: (events: readonly SocketEvent[]) => void;
}

const TRACE_LIMIT = 50_000;
const networks = new WeakMap<World, NetworkState>();

function network(world: World): NetworkState {
  let net = networks.get(world);
  if (net === undefined) {
    net = {
      hosts: createHosts(world.cluster),
      syncedWith: world.cluster,
      steps: [],
      nextSeq: 0,
      detail: 'all',
    };
    networks.set(world, net);
  } else if (net.syncedWith !== world.cluster) {
    syncHosts(net.hosts, world.cluster);
    net.syncedWith = world.cluster;
  }
  return net;
}

function hostCtx(world: World): HostCtx {
  return {
    now: world.clock.now(),
    rng: world.rng,
    cluster: world.cluster,
    epochSeconds: world.epochSeconds,
  };
}

/** Carries emitted packets until the network is quiet (each delivery may answer). */
function carry(world: World, net: NetworkState, step: HostStep): void {
  net.tap?.(step.events);
  const queue = step.emit.slice();
  let head = 0;
  // A bound against a packet storm bug; real exchanges here take a handful of packets.
  for (let budget = 10_000; head < queue.length && budget > 0; budget--) {
    const emitted = queue[head++]!;
    const from = hostRefOf(world.cluster, emitted.host);
    const sent = sendPacket(world, from, emitted.packet, {
      firstSeq: net.nextSeq,
      detail: net.detail,
      ...(emitted.why === undefined ? {} : { why: emitted.why }),
    });
    record(net, sent.steps);
    deliver(world, net, sent.outcome, queue);
  }
}

/** A packet's end: a delivery goes to the receiving host's socket layer, whose answers queue. */
function deliver(world: World, net: NetworkState, end: Outcome, queue: Emitted[]): void {
  let outcome = end;
  while (outcome.kind === 'answered') outcome = outcome.then;
  if (outcome.kind === 'delivered') {
    const traced = net.detail !== 'off';
    const reply = hostReceive(net.hosts, outcome.host, outcome.packet, hostCtx(world), traced);
    if (reply.received !== undefined) explainDelivery(net.steps, outcome.packetId, reply.received);
    net.tap?.(reply.events);
    queue.push(...reply.emit);
  }
}

/** The nodes' neighbour timers due now; what they release is carried like any packet. */
function neighbourTimers(world: World, net: NetworkState): void {
  const fired = runNeighbourTimers(world, { firstSeq: net.nextSeq, detail: net.detail });
  record(net, fired.steps);
  const queue: Emitted[] = [];
  for (const o of fired.outcomes) deliver(world, net, o, queue);
  if (queue.length > 0) carry(world, net, { emit: queue, events: [] });
}

function record(net: NetworkState, steps: readonly TraceStep[]): void {
  for (const s of steps) net.steps.push(s);
  if (steps.length > 0) net.nextSeq = steps[steps.length - 1]!.seq + 1;
  // Trim in batches (a quarter of the limit at a time): trimming on every call would move the
  // whole array for each packet once the limit is reached.
  if (net.steps.length > TRACE_LIMIT + (TRACE_LIMIT >> 2))
    net.steps.splice(0, net.steps.length - TRACE_LIMIT);
}

/**
 * Moves virtual time to `toMs`, firing every timer on the way, in order: the hosts' (TCP
 * retransmissions, program timeouts) and the control plane's (pods whose grace period ends).
 */
export function advanceNetwork(world: World, toMs: number): void {
  // Commands check first (`sleep` says so); anything else stops at the clock's end.
  const targetMs = Math.min(toMs, (LAB_CLOCK_END_UNIX_SECONDS - world.epochSeconds) * 1000);
  for (;;) {
    const net = network(world);
    const hostNext = nextWakeup(net.hosts);
    const planeNext = nextControlPlaneEvent(world);
    const neighNext = nextNeighbourTimer(world);
    let next = hostNext;
    if (planeNext !== undefined && (next === undefined || planeNext < next)) next = planeNext;
    if (neighNext !== undefined && (next === undefined || neighNext < next)) next = neighNext;
    if (next === undefined || next > targetMs) break;
    if (next > world.clock.now()) world.advance(next - world.clock.now());
    if (next === planeNext) runControlPlaneEvents(world);
    else if (next === hostNext) carry(world, net, hostTimers(net.hosts, hostCtx(world)));
    else neighbourTimers(world, net);
  }
  if (targetMs > world.clock.now()) world.advance(targetMs - world.clock.now());
  collectExpired(world);
}

/**
 * conntrack's gc_worker: entries whose timeout passed are freed as time goes by, not only when
 * a lookup or a command meets them (the kernel's worker is periodic; the lab runs it once each
 * time the clock has been moved), so a table does not keep what expired.
 */
function collectExpired(world: World): void {
  const now = world.clock.now();
  for (const node of Object.values(datapathState(world).nodes)) {
    if (now >= node.conntrack.nextExpiryMs) ctExpire(node.conntrack, now);
  }
}

/**
 * A host's processes are killed (a pod's grace period ended): the kernel closes every socket
 * they held — connections send their FIN (tcp_close), listeners go — and the packets leave
 * while the pod's network is still there.
 */
export function closeHostSockets(world: World, host: string): void {
  const net = network(world);
  const stack = net.hosts.hosts[host];
  if (stack === undefined) return;
  for (const sock of [...stack.sockets]) {
    carry(world, net, closeSocket(net.hosts, sock.id, hostCtx(world)));
  }
}

/**
 * The hosts' socket layer for callers that own sockets themselves (the lab's named flows):
 * socket calls take `ctx()`, what they emit goes to `carry`, and `tap` sees every event.
 */
export function socketLayer(world: World): {
  readonly hosts: HostsState;
  ctx(): HostCtx;
  carry(step: HostStep): void;
  setTap(tap: (events: readonly SocketEvent[]) => void): void;
} {
  const net = network(world);
  return {
    hosts: net.hosts,
    ctx: () => hostCtx(world),
    carry: (step) => carry(world, network(world), step),
    setTap: (tap) => {
      net.tap = tap;
    },
  };
}

/** Steps no packet caused (kube-proxy deleting conntrack entries), appended to the trace. */
export function recordAgentSteps(
  world: World,
  make: (firstSeq: number) => readonly TraceStep[],
): void {
  const net = network(world);
  record(net, make(net.nextSeq));
}

export interface ProgramRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /** The writes in order, where `2>&1` depends on it (model/stdio.ts). */
  readonly writes?: readonly StdioWrite[];
  /** The trace steps of every packet the program caused. */
  readonly steps: readonly TraceStep[];
}

/** A node stack's addresses from the lab topology, before kernel-bound ones were added. */
const topologyAddresses = new WeakMap<object, readonly string[]>();

/**
 * A node's socket layer picks source addresses from every local address, including those
 * kube-proxy bound to kube-ipvs0: a node's own connection to a ClusterIP in IPVS mode leaves
 * from the service address itself (the local route's preferred source).
 */
function withKernelAddresses(world: World, net: NetworkState, host: HostRef): void {
  const ref = effectiveHost(world.cluster, host);
  if (ref?.kind !== 'node') return;
  const stack = stackFor(net.hosts, ref);
  const extra = world.kernel(ref.name)?.kubeIpvs0?.addresses ?? [];
  if (stack === undefined) return;
  const base = topologyAddresses.get(stack.sockets) ?? stack.addresses;
  topologyAddresses.set(stack.sockets, base);
  const addresses = [...base, ...extra.filter((a) => !base.includes(a))];
  if (addresses.length === stack.addresses.length) return;
  net.hosts.hosts[hostKey(ref)] = { ...stack, addresses };
}

/** Runs curl/nc/dig/nslookup on a host until it finishes (virtual time passes as needed). */
export function runProgram(
  world: World,
  host: HostRef,
  spec: ProgramSpec,
  io: { readonly stdoutIsTty: boolean } = { stdoutIsTty: true },
): ProgramRun {
  const net = network(world);
  withKernelAddresses(world, net, host);
  const firstStep = net.nextSeq;
  const started = startProgram(net.hosts, host, spec, hostCtx(world));
  carry(world, net, started);
  const env = { epochSeconds: world.epochSeconds, stdoutIsTty: io.stdoutIsTty };
  for (;;) {
    const result = programResult(net.hosts, started.pid, env);
    if (result === undefined || result.done) {
      return {
        stdout: result?.stdout ?? '',
        stderr: result?.stderr ?? '',
        exitCode: result?.exitCode ?? 1,
        ...(result?.writes === undefined ? {} : { writes: result.writes }),
        steps: net.steps.filter((s) => s.seq >= firstStep),
      };
    }
    const next = nextWakeup(net.hosts);
    if (next === undefined) {
      // Nothing left that could finish it: report what it has (a bug if ever reached).
      return { ...result, steps: net.steps.filter((s) => s.seq >= firstStep) };
    }
    advanceNetwork(world, Math.max(next, world.clock.now()));
  }
}

/**
 * How much of each iptables walk the trace keeps: every evaluated rule (the default, what the
 * lab animates), the matched ones, or none; `off` keeps no step at all (bulk runs: thousands
 * of connections). Packets take the same path whatever the detail.
 */
export function setTraceDetail(world: World, detail: TraceDetail): void {
  network(world).detail = detail;
}

/** Trace steps recorded since `seq` (for `--json` and the UI). */
export function traceSince(world: World, seq: number): TraceStep[] {
  return network(world).steps.filter((s) => s.seq >= seq);
}

/** The sequence number the next trace step will get. */
export function traceCursor(world: World): number {
  return network(world).nextSeq;
}

export type { ProgramSpec };
