/**
 * getaddrinfo() as curl and nc call it (glibc 2.36, AF_UNSPEC, Debian bookworm), checked with
 * tcpdump against the real resolver:
 *
 * - for each name of the search list (../dns/resolv.ts searchCandidates), a new UDP socket
 *   connected to the nameserver sends an A and an AAAA query back to back from the same port
 *   (no EDNS; `12345+ A? web.default.svc.cluster.local. (47)`);
 * - both answered: an A record ends the lookup; NXDOMAIN, NODATA or SERVFAIL move to the next
 *   name; the last one failing fails the lookup (curl: `Could not resolve host`);
 * - no answer within `timeout:` (5 s) → both queries again, up to `attempts:` (2) times, then
 *   the lookup fails; an ICMP error on the connected socket (ECONNREFUSED) fails it at once.
 *   A reply from another address than the nameserver never reaches the connected socket: the
 *   host answers it with ICMP port unreachable (the same-node DNS failure).
 */
import { ipIsValid } from '../../model/ip';
import type { DnsMessage } from '../dns/message';
import { dnsQuery } from '../dns/message';
import type { ResolvConf } from '../dns/resolv';
import { searchCandidates } from '../dns/resolv';
import type { Op } from '../net';
import type { HostStack, SocketEvent } from '../types';
import { udpClose, udpOpen, udpSend } from '../udp';
import type { ProgramState, ResolverState } from './types';

function closeSocket(stack: HostStack, r: ResolverState): void {
  const sock = stack.sockets.find((s) => s.id === r.socket);
  if (sock?.proto === 'udp') udpClose(stack, sock);
  r.socket = undefined;
}

function sendBoth(op: Op, stack: HostStack, prog: ProgramState, r: ResolverState): void {
  const name = r.candidates[r.index] ?? r.name;
  const server = { addr: r.conf.nameservers[0] ?? '', port: 53 };
  let sock = stack.sockets.find((s) => s.id === r.socket);
  if (sock === undefined) {
    const opened = udpOpen(op, stack, {
      owner: { kind: 'program', pid: prog.pid },
      connect: server,
    });
    if ('errno' in opened) {
      r.result = { ok: false, reason: 'refused' };
      return;
    }
    sock = opened;
    r.socket = sock.id;
    r.ids = { A: op.ctx.rng.nextU32() & 0xffff, AAAA: op.ctx.rng.nextU32() & 0xffff };
  }
  if (sock.proto !== 'udp') return;
  r.answers = {};
  for (const type of ['A', 'AAAA'] as const) {
    const message = dnsQuery(r.ids[type], name, type);
    const sent = udpSend(op, stack, sock, { kind: 'dns', message });
    if (sent.errno !== undefined) {
      closeSocket(stack, r);
      r.result = { ok: false, reason: 'refused' };
      return;
    }
    prog.transcript.push({ t: op.ctx.now, kind: 'dns-query', server, message, tcp: false });
  }
  r.deadline = op.ctx.now + r.conf.timeoutSec * 1000;
}

/** Starts a lookup; an address literal or `localhost` resolves at once, without DNS. */
export function resolveStart(
  op: Op,
  stack: HostStack,
  prog: ProgramState,
  name: string,
  conf: ResolvConf,
): void {
  const r: ResolverState = {
    name,
    conf,
    candidates: searchCandidates(name, conf),
    index: 0,
    attempt: 0,
    ids: { A: 0, AAAA: 0 },
    answers: {},
    deadline: op.ctx.now,
  };
  prog.resolver = r;
  if (ipIsValid(name)) r.result = { ok: true, addrs: [name] };
  else if (name === 'localhost') r.result = { ok: true, addrs: ['127.0.0.1'] };
  else if (conf.nameservers.length === 0) r.result = { ok: false, reason: 'refused' };
  else sendBoth(op, stack, prog, r);
}

function addresses(m: DnsMessage | undefined): string[] {
  return (m?.answer ?? []).flatMap((rr) => (rr.data.type === 'A' ? [rr.data.address] : []));
}

function evaluate(op: Op, stack: HostStack, prog: ProgramState, r: ResolverState): void {
  const addrs = addresses(r.answers.A);
  if (addrs.length > 0) {
    closeSocket(stack, r);
    r.result = { ok: true, addrs };
    return;
  }
  closeSocket(stack, r);
  r.index += 1;
  r.attempt = 0;
  if (r.index >= r.candidates.length) r.result = { ok: false, reason: 'nxdomain' };
  else sendBoth(op, stack, prog, r);
}

/** A socket event for the resolver; true when it was the resolver's. */
export function resolverEvent(op: Op, stack: HostStack, prog: ProgramState, ev: SocketEvent) {
  const r = prog.resolver;
  if (r === undefined || r.result !== undefined || ev.socket !== r.socket) return false;
  if (ev.kind === 'unreachable') {
    closeSocket(stack, r);
    r.result = { ok: false, reason: 'refused' };
    return true;
  }
  if (ev.kind !== 'data' || ev.data?.kind !== 'dns') return true;
  const m = ev.data.message;
  const server = { addr: ev.from?.addr ?? '', port: ev.from?.port ?? 53 };
  if (m.id === r.ids.A && r.answers.A === undefined) r.answers.A = m;
  else if (m.id === r.ids.AAAA && r.answers.AAAA === undefined) r.answers.AAAA = m;
  else return true;
  prog.transcript.push({ t: op.ctx.now, kind: 'dns-response', server, message: m, tcp: false });
  if (r.answers.A !== undefined && r.answers.AAAA !== undefined) evaluate(op, stack, prog, r);
  return true;
}

/** The resolver's timeout, if it is due: resend, or give up after `attempts`. */
export function resolverTimer(op: Op, stack: HostStack, prog: ProgramState): void {
  const r = prog.resolver;
  if (r === undefined || r.result !== undefined || op.ctx.now < r.deadline) return;
  r.attempt += 1;
  if (r.attempt >= r.conf.attempts) {
    closeSocket(stack, r);
    r.result = { ok: false, reason: 'timeout' };
    return;
  }
  sendBoth(op, stack, prog, r);
}

export function resolverPending(prog: ProgramState): number | undefined {
  const r = prog.resolver;
  return r !== undefined && r.result === undefined ? r.deadline : undefined;
}
