/**
 * iputils ping (20221126) as a program of the lab's hosts: ICMP echo requests every `-i`
 * seconds, each answered by the destination's kernel (icmp_echo) or by an ICMP error from a
 * router or the destination (unreachable, time exceeded). It stops once `-c` requests are all
 * answered or errored, else `-W` seconds after the last request (`-w` ends it at its deadline);
 * `acknowledge()` keeps the largest number of requests in flight (`pipe N`).
 */
import type { Op } from '../net';
import { connectDestination, routeFor, send } from '../net';
import type { HostPacket, HostStack } from '../types';
import type { PingState } from './types';

/** The echo identifier a ping gets (the kernel's choice for an ICMP socket: an ephemeral id). */
export function pingId(rng: { nextU32(): number }): number {
  return rng.nextU32() & 0xffff;
}

function finish(op: Op, prog: PingState): void {
  prog.done = true;
  prog.wakeAt = undefined;
  prog.exitCode = prog.received === 0 || (prog.opts.deadlineMs !== undefined && prog.opts.count !== undefined && prog.received < prog.opts.count) ? 1 : 0; // prettier-ignore
  prog.transcript.push({
    t: op.ctx.now,
    kind: 'ping-done',
    transmitted: prog.transmitted,
    timeMs: prog.lastSent - prog.firstSent,
    pipe: prog.pipe,
  });
}

/** The largest IP datagram, and so the largest ICMP message a raw socket sends (0xFFFF). */
const IP_MAX_BYTES = 0xffff;

function sendProbe(op: Op, stack: HostStack, prog: PingState, addr: string): void {
  const route = routeFor(stack, addr);
  if (route === undefined) return;
  const seq = prog.transmitted + 1;
  const icmpBytes = 8 + prog.opts.size;
  if (icmpBytes + 20 > IP_MAX_BYTES) {
    // Too big for one IP datagram: nothing leaves. An ICMP message over 0xFFFF bytes is refused
    // by raw_sendmsg() with EMSGSIZE before anything is queued, and iputils, finding no error in
    // the queue, counts the probe as sent and says nothing ("Hard local error. Pretend we sent
    // packet"). A smaller one gets as far as ip_append_data(), whose ip_local_error() queues
    // EMSGSIZE with mtu 0xFFFF: iputils reads it and prints "local error: message too long,
    // mtu=65535", counted in "+N errors" — except with -q, which skips such errors uncounted.
    // (iputils 20221126 in a namespace: -s 65507 answered, 65508–65527 local error, 65528 quiet.)
    if (prog.transmitted === 0) prog.firstSent = op.ctx.now;
    prog.lastSent = op.ctx.now;
    prog.transmitted = seq;
    if (icmpBytes <= IP_MAX_BYTES && !prog.opts.quiet) {
      prog.errors++;
      prog.transcript.push({ t: op.ctx.now, kind: 'local-error', seq, mtu: IP_MAX_BYTES });
    }
    return;
  }
  const packet: HostPacket = {
    src: route.src,
    dst: addr,
    proto: 'icmp',
    icmp: { type: 8, code: 0, id: prog.id },
    length: 28 + prog.opts.size,
    mark: 0,
    seq,
  };
  if (prog.transmitted === 0) prog.firstSent = op.ctx.now;
  prog.lastSent = op.ctx.now;
  prog.transmitted = seq;
  send(op, stack, route.dev, packet);
}

/** What comes after a request went out, or an answer came: the next request, or the end. */
function schedule(op: Op, prog: PingState): void {
  const o = prog.opts;
  const now = op.ctx.now;
  const deadline = o.deadlineMs === undefined ? undefined : prog.startedAt + o.deadlineMs;
  if (deadline !== undefined && now >= deadline) return finish(op, prog);
  const answered = prog.received + prog.errors;
  if (o.count !== undefined && prog.transmitted >= o.count) {
    if (answered >= o.count) return finish(op, prog);
    // All sent: wait -W for the rest (never past -w).
    const end = prog.lastSent + o.timeoutMs;
    prog.wakeAt = deadline === undefined ? end : Math.min(end, deadline);
    return;
  }
  const next = prog.lastSent + o.intervalMs;
  prog.wakeAt = deadline === undefined ? next : Math.min(next, deadline);
}

export function pingStart(op: Op, stack: HostStack, prog: PingState, target: string): void {
  // `ping 0.0.0.0` pings this host: `PING 0.0.0.0 (127.0.0.1)` (iputils 20221126).
  const addr = connectDestination({ addr: target }).addr;
  if (routeFor(stack, addr) === undefined) {
    prog.transcript.push({ t: op.ctx.now, kind: 'connect-failed', errno: 'ENETUNREACH' });
    prog.done = true;
    prog.exitCode = 2;
    return;
  }
  prog.transcript.push({ t: op.ctx.now, kind: 'resolved', addr });
  sendProbe(op, stack, prog, addr);
  schedule(op, prog);
}

export function pingTimer(op: Op, stack: HostStack, prog: PingState): void {
  const addr = prog.transcript.find((e) => e.kind === 'resolved');
  if (addr?.kind !== 'resolved') return finish(op, prog);
  const o = prog.opts;
  const deadline = o.deadlineMs === undefined ? undefined : prog.startedAt + o.deadlineMs;
  if (deadline !== undefined && op.ctx.now >= deadline) return finish(op, prog);
  if (o.count === undefined || prog.transmitted < o.count) sendProbe(op, stack, prog, addr.addr);
  else return finish(op, prog);
  schedule(op, prog);
}

/** acknowledge(): the in-flight count when `seq` is answered. */
function acknowledge(prog: PingState, seq: number): void {
  prog.pipe = Math.max(prog.pipe, prog.transmitted - seq + 1);
}

/**
 * An ICMP packet for one of `stack`'s pings: an echo reply with its id, or an error quoting one
 * of its requests. False when it is nobody's.
 */
export function pingInput(op: Op, stack: HostStack, p: HostPacket): boolean {
  const reply = p.icmp?.type === 0;
  const error = (p.icmp?.type === 3 || p.icmp?.type === 11) && p.inner?.proto === 'icmp';
  if (!reply && !error) return false;
  const id = reply ? p.icmp?.id : p.inner?.icmp?.id;
  const seq = reply ? p.seq : p.inner?.seq;
  for (const prog of Object.values(op.hosts.programs)) {
    if (prog.kind !== 'ping' || prog.done || prog.host !== stack.key || prog.id !== id) continue;
    if (seq === undefined || seq < 1 || seq > prog.transmitted) return true;
    acknowledge(prog, seq);
    if (reply) {
      prog.received++;
      prog.transcript.push({ t: op.ctx.now, kind: 'echo-reply', seq, from: p.src, ttl: p.ttl ?? 64 }); // prettier-ignore
    } else {
      prog.errors++;
      prog.transcript.push({ t: op.ctx.now, kind: 'echo-error', seq, from: p.src, type: p.icmp?.type ?? 3, code: p.icmp?.code ?? 0 }); // prettier-ignore
    }
    if (prog.opts.count !== undefined && prog.received + prog.errors >= prog.opts.count && prog.transmitted >= prog.opts.count) finish(op, prog); // prettier-ignore
    return true;
  }
  return false;
}
