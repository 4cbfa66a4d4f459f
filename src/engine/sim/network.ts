/**
 * The network in motion: end hosts emit packets, the datapath carries each one through the
 * nodes' kernels, deliveries go back to the receiving host's socket layer, and virtual time
 * advances from timer to timer (retransmissions, timeouts) while a program runs or the lab
 * sleeps. Everything that happened is kept as trace steps.
 */
import type { TraceStep } from '../../protocol/trace';
import { sendPacket, type Outcome } from '../datapath';
import {
  createHosts,
  hostRefOf,
  hostReceive,
  hostTimers,
  nextWakeup,
  programResult,
  startProgram,
  syncHosts,
  type HostCtx,
  type HostsState,
  type HostStep,
  type ProgramSpec,
} from '../hosts';
import type { HostRef } from '../routing/topology';
import type { World } from './world';

interface NetworkState {
  readonly hosts: HostsState;
  /** The cluster the host stacks were last synced with. */
  syncedWith: World['cluster'];
  /** Every trace step so far (bounded: the oldest are dropped past TRACE_LIMIT). */
  steps: TraceStep[];
  nextSeq: number;
}

const TRACE_LIMIT = 50_000;
const networks = new WeakMap<World, NetworkState>();

function network(world: World): NetworkState {
  let net = networks.get(world);
  if (net === undefined) {
    net = { hosts: createHosts(world.cluster), syncedWith: world.cluster, steps: [], nextSeq: 0 };
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
  const queue = [...step.emit];
  // A bound against a packet storm bug; real exchanges here take a handful of packets.
  for (let budget = 10_000; queue.length > 0 && budget > 0; budget--) {
    const emitted = queue.shift()!;
    const from = hostRefOf(world.cluster, emitted.host);
    const sent = sendPacket(world, from, emitted.packet, { firstSeq: net.nextSeq });
    record(net, sent.steps);
    let outcome: Outcome = sent.outcome;
    while (outcome.kind === 'answered') outcome = outcome.then;
    if (outcome.kind === 'delivered') {
      const reply = hostReceive(net.hosts, outcome.host, outcome.packet, hostCtx(world));
      queue.push(...reply.emit);
    }
  }
}

function record(net: NetworkState, steps: readonly TraceStep[]): void {
  for (const s of steps) net.steps.push(s);
  if (steps.length > 0) net.nextSeq = steps[steps.length - 1]!.seq + 1;
  if (net.steps.length > TRACE_LIMIT) net.steps.splice(0, net.steps.length - TRACE_LIMIT);
}

/** Moves virtual time to `targetMs`, firing every host timer on the way, in order. */
export function advanceNetwork(world: World, targetMs: number): void {
  const net = network(world);
  for (;;) {
    const next = nextWakeup(net.hosts);
    if (next === undefined || next > targetMs) break;
    if (next > world.clock.now()) world.advance(next - world.clock.now());
    carry(world, net, hostTimers(net.hosts, hostCtx(world)));
  }
  if (targetMs > world.clock.now()) world.advance(targetMs - world.clock.now());
}

export interface ProgramRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /** The trace steps of every packet the program caused. */
  readonly steps: readonly TraceStep[];
}

/** Runs curl/nc/dig/nslookup on a host until it finishes (virtual time passes as needed). */
export function runProgram(world: World, host: HostRef, spec: ProgramSpec): ProgramRun {
  const net = network(world);
  const firstStep = net.nextSeq;
  const started = startProgram(net.hosts, host, spec, hostCtx(world));
  carry(world, net, started);
  const env = { epochSeconds: world.epochSeconds };
  for (;;) {
    const result = programResult(net.hosts, started.pid, env);
    if (result === undefined || result.done) {
      return {
        stdout: result?.stdout ?? '',
        stderr: result?.stderr ?? '',
        exitCode: result?.exitCode ?? 1,
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

/** Trace steps recorded since `seq` (for `--json` and the UI). */
export function traceSince(world: World, seq: number): TraceStep[] {
  return network(world).steps.filter((s) => s.seq >= seq);
}

/** The sequence number the next trace step will get. */
export function traceCursor(world: World): number {
  return network(world).nextSeq;
}

export type { ProgramSpec };
