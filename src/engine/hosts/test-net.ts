/**
 * A stand-in network for the socket layer's tests: packets go straight to the host owning the
 * destination address (after an optional rewrite that plays NAT or drops), with a fixed latency,
 * on a virtual clock. The lab's real glue is the datapath; this is only enough to drive hosts.
 */
import type { Cluster } from '../model/cluster';
import type { Rng } from '../model/runtime';
import { rngFromSeed } from '../model/runtime';
import { createHosts, stackFor } from './build';
import { readyAddresses } from './dns/coredns';
import type { ProgramSpec } from './programs/run';
import { programResult } from './programs/run';
import { hostReceive, hostTimers, nextWakeup, startProgram } from './stack';
import type { Emitted, HostCtx, HostPacket, HostsState, SocketEvent } from './types';

export interface Wire {
  readonly t: number;
  readonly from: string;
  readonly to: string;
  /** As the host sent it. */
  readonly packet: HostPacket;
  /** As it arrived after the rewrite; absent when dropped. */
  readonly delivered?: HostPacket;
}

/** Rewrites a packet on its way (NAT), or drops it (undefined). */
export type Rewrite = (packet: HostPacket, from: string) => HostPacket | undefined;

/**
 * A ClusterIP DNAT like kube-proxy's, with conntrack's un-DNAT of replies — unless `undnat`
 * says no for a reply (the same-node bridge problem: the reply is bridged, never un-NATed).
 * `pick` chooses the endpoint (default: the first ready one).
 */
export function serviceNat(
  cluster: Cluster,
  opts: {
    readonly pick?: (endpoints: readonly string[]) => string;
    readonly undnat?: (reply: HostPacket) => boolean;
  } = {},
): Rewrite {
  const bindings = new Map<string, { vip: string; vport: number }>();
  const key = (
    a: string,
    ap: number | undefined,
    b: string,
    bp: number | undefined,
    proto: string,
  ) => `${proto} ${a}:${ap ?? 0} ${b}:${bp ?? 0}`;
  return (p) => {
    const back = bindings.get(key(p.src, p.sport, p.dst, p.dport, p.proto));
    if (back !== undefined)
      return opts.undnat?.(p) === false ? p : { ...p, src: back.vip, sport: back.vport };
    const svc = cluster.services.find((s) => s.clusterIP === p.dst);
    const port = svc?.ports.find(
      (sp) => sp.port === p.dport && sp.protocol.toLowerCase() === p.proto,
    );
    if (svc === undefined || port === undefined) return p;
    const eps = readyAddresses(cluster, svc);
    if (eps.length === 0) return undefined;
    const ep = opts.pick?.(eps) ?? (eps[0] as string);
    const pod = cluster.pods.find((x) => x.podIP === ep);
    const target =
      typeof port.targetPort === 'number'
        ? port.targetPort
        : (pod?.containers.flatMap((c) => c.ports).find((cp) => cp.name === port.targetPort)
            ?.containerPort ?? 0);
    bindings.set(key(ep, target, p.src, p.sport, p.proto), {
      vip: svc.clusterIP,
      vport: port.port,
    });
    return { ...p, dst: ep, dport: target };
  };
}

export class TestNet {
  readonly hosts: HostsState;
  readonly rng: Rng;
  now = 0;
  readonly wire: Wire[] = [];
  readonly events: SocketEvent[] = [];
  private queue: { at: number; e: Emitted }[] = [];

  constructor(
    readonly cluster: Cluster,
    readonly opts: {
      seed?: number;
      latencyMs?: number;
      rewrite?: Rewrite;
      epochSeconds?: number;
      sysctls?: Record<string, Record<string, string>>;
    } = {},
  ) {
    this.hosts = createHosts(cluster, opts.sysctls === undefined ? {} : { sysctls: opts.sysctls });
    this.rng = rngFromSeed(opts.seed ?? 1);
  }

  get epochSeconds(): number {
    return this.opts.epochSeconds ?? 1_733_149_320;
  }

  ctx(): HostCtx {
    return { now: this.now, rng: this.rng, cluster: this.cluster, epochSeconds: this.epochSeconds };
  }

  push(step: { emit: Emitted[]; events: SocketEvent[] }): void {
    this.events.push(...step.events);
    for (const e of step.emit) this.queue.push({ at: this.now + (this.opts.latencyMs ?? 0), e });
  }

  private ownerOf(addr: string, from: string): string | undefined {
    if (addr.startsWith('127.')) return from;
    for (const [key, stack] of Object.entries(this.hosts.hosts))
      if (stack.addresses.includes(addr)) return key;
    return undefined;
  }

  private deliver({ e }: { e: Emitted }): void {
    const packet = this.opts.rewrite === undefined ? e.packet : this.opts.rewrite(e.packet, e.host);
    const to = packet === undefined ? undefined : this.ownerOf(packet.dst, e.host);
    this.wire.push({
      t: this.now,
      from: e.host,
      to: to ?? '',
      packet: e.packet,
      ...(packet === undefined ? {} : { delivered: packet }),
    });
    if (to === undefined || packet === undefined) return;
    this.push(hostReceive(this.hosts, to, packet, this.ctx()));
  }

  start(host: string, spec: ProgramSpec): number {
    const r = startProgram(this.hosts, host, spec, this.ctx());
    this.push(r);
    return r.pid;
  }

  /** Runs packets and timers until `until()` holds or nothing is left before `limitMs`. */
  run(limitMs: number, until: () => boolean = () => false): void {
    for (;;) {
      while (this.queue.length > 0 && (this.queue[0]?.at ?? Infinity) <= this.now) {
        const next = this.queue.shift();
        if (next !== undefined) this.deliver(next);
      }
      if (until()) return;
      const t = [this.queue[0]?.at, nextWakeup(this.hosts)].filter(
        (x): x is number => x !== undefined,
      );
      if (t.length === 0) return;
      const next = Math.min(...t);
      if (next > limitMs) return;
      this.now = Math.max(this.now, next);
      this.push(hostTimers(this.hosts, this.ctx()));
    }
  }

  /** Runs a program to completion (or `limitMs`) and returns its output. */
  exec(host: string, spec: ProgramSpec, limitMs = 20 * 60_000) {
    const pid = this.start(host, spec);
    this.run(limitMs, () => this.hosts.programs[pid]?.done === true);
    const r = programResult(this.hosts, pid, { epochSeconds: this.epochSeconds });
    if (r === undefined) throw new Error('no such program');
    return { ...r, pid, startedAt: this.hosts.programs[pid]?.startedAt ?? 0 };
  }

  stack(key: string) {
    return stackFor(this.hosts, key);
  }

  /** `from>to flags` lines of the TCP packets seen, for compact assertions. */
  flags(filter: (w: Wire) => boolean = () => true): string[] {
    return this.wire
      .filter((w) => w.packet.proto === 'tcp' && filter(w))
      .map(
        (w) =>
          `${w.t} ${w.packet.src}:${w.packet.sport}>${w.packet.dst}:${w.packet.dport} ${w.packet.tcpFlags ?? ''}`,
      );
  }
}
