/**
 * dig and nslookup of BIND 9.18 (Debian bookworm's dnsutils), sharing dighost's query loop:
 *
 * - each try opens a new UDP socket connected to the server (9.18's network manager; the query
 *   ID stays the same across tries, the source port changes) and waits `+timeout` (5 s); a try
 *   that gets ICMP port unreachable fails at once; after `+tries` (3) tries: no servers reached;
 * - dig sends EDNS (UDP size 1232) with an 8-byte client COOKIE and the AD flag; nslookup sends
 *   a plain query;
 * - nslookup walks the search list (ndots from resolv.conf) with A queries, stopping at the first
 *   answer that is not NXDOMAIN, then asks AAAA for the name it found (after CNAMEs);
 * - `legacy` dig (BIND ≤ 9.16) uses an unconnected socket: a reply from another address is
 *   reported (`reply from unexpected source`) and the wait goes on.
 */
import type { DnsMessage, RRType } from '../dns/message';
import { dnsQuery, fqdn } from '../dns/message';
import type { Op } from '../net';
import { tcpClose, tcpConnect } from '../tcp-user';
import type { HostStack, Payload, SocketEvent } from '../types';
import { udpClose, udpOpen, udpSend } from '../udp';
import { digExitCode } from '../output/dig';
import { nslookupExitCode } from '../output/nslookup';
import type { DnsToolState } from './types';

function closeSock(op: Op, stack: HostStack, prog: DnsToolState): void {
  const sock = stack.sockets.find((s) => s.id === prog.socket);
  if (sock?.proto === 'tcp') tcpClose(op, stack, sock);
  else if (sock?.proto === 'udp') udpClose(stack, sock);
  prog.socket = undefined;
}

function finish(prog: DnsToolState): void {
  prog.done = true;
  prog.wakeAt = undefined;
  prog.exitCode =
    prog.kind === 'dig' ? digExitCode(prog.transcript) : nslookupExitCode(prog.transcript);
}

/** Sends (or resends) the current query on a fresh socket. */
function sendQuery(op: Op, stack: HostStack, prog: DnsToolState): void {
  const current = prog.queue[0];
  if (current === undefined) return finish(prog);
  const [name, type] = current;
  const dig = prog.dig;
  const message: DnsMessage =
    dig !== undefined
      ? dnsQuery(prog.queryId, name, type, {
          edns: { udpSize: 1232, cookie: prog.cookie },
          ad: true,
        })
      : dnsQuery(prog.queryId, name, type);
  const payload: Payload = { kind: 'dns', message };
  const owner = { kind: 'program' as const, pid: prog.pid };
  const tcp = dig?.tcp === true;
  if (tcp) {
    const s = tcpConnect(op, stack, prog.server, { owner, data: payload });
    if ('errno' in s) return finish(prog);
    prog.socket = s.id;
  } else {
    const legacy = dig?.legacy === true;
    const s = udpOpen(op, stack, { owner, ...(legacy ? {} : { connect: prog.server }) });
    if ('errno' in s) return finish(prog);
    prog.socket = s.id;
    udpSend(op, stack, s, payload, prog.server);
  }
  prog.transcript.push({ t: op.ctx.now, kind: 'dns-query', server: prog.server, message, tcp });
  prog.wakeAt = op.ctx.now + (dig?.timeoutMs ?? 5000);
}

function tries(prog: DnsToolState): number {
  return prog.dig?.tries ?? 3;
}

function failedTry(op: Op, stack: HostStack, prog: DnsToolState): void {
  closeSock(op, stack, prog);
  prog.tryNo += 1;
  if (prog.tryNo >= tries(prog)) return finish(prog);
  sendQuery(op, stack, prog);
}

function newQuery(op: Op, stack: HostStack, prog: DnsToolState, name: string, type: RRType): void {
  prog.queue = [[name, type]];
  prog.tryNo = 0;
  prog.queryId = op.ctx.rng.nextU32() & 0xffff;
  sendQuery(op, stack, prog);
}

export function dnsToolStart(op: Op, stack: HostStack, prog: DnsToolState): void {
  if (prog.server.addr === '') return finish(prog);
  const first =
    prog.kind === 'dig' && prog.candidates.length === 0
      ? fqdn(prog.dig?.name ?? '.')
      : (prog.candidates[0] ?? '.');
  newQuery(op, stack, prog, first, prog.dig?.type ?? 'A');
}

/** The name an answer leads to after its CNAME chain (nslookup's chase_cnamechain). */
function chased(m: DnsMessage, name: string): string {
  let n = name;
  for (let i = 0; i < 8; i++) {
    const c = m.answer.find(
      (rr) => rr.name.toLowerCase() === n.toLowerCase() && rr.data.type === 'CNAME',
    );
    if (c === undefined || c.data.type !== 'CNAME') break;
    n = c.data.target;
  }
  return n;
}

function onResponse(op: Op, stack: HostStack, prog: DnsToolState, m: DnsMessage, tcp: boolean) {
  prog.transcript.push({
    t: op.ctx.now,
    kind: 'dns-response',
    server: prog.server,
    message: m,
    tcp,
  });
  closeSock(op, stack, prog);
  const [name, type] = prog.queue[0] ?? ['.', 'A'];
  if (prog.kind === 'dig') {
    // +search: an NXDOMAIN moves on to the next name (next_origin()); dig prints the last.
    if (m.rcode !== 'NXDOMAIN' || prog.candidates.length <= 1) return finish(prog);
    prog.candidates.shift();
    return newQuery(op, stack, prog, prog.candidates[0] ?? '.', type);
  }
  if (type === 'A' && m.rcode === 'NXDOMAIN' && prog.candidates.length > 1) {
    prog.candidates.shift();
    return newQuery(op, stack, prog, prog.candidates[0] ?? '.', 'A');
  }
  if (type === 'A' && m.rcode === 'NOERROR')
    return newQuery(op, stack, prog, chased(m, name), 'AAAA');
  finish(prog);
}

export function dnsToolEvent(op: Op, stack: HostStack, prog: DnsToolState, ev: SocketEvent): void {
  if (ev.socket !== prog.socket || prog.done) return;
  const t = op.ctx.now;
  if (ev.kind === 'unexpected-source' && ev.from !== undefined) {
    prog.transcript.push({
      t,
      kind: 'dns-unexpected-source',
      from: ev.from,
      expected: prog.server,
    });
    return;
  }
  if (ev.kind === 'data' && ev.data?.kind === 'dns') {
    const m = ev.data.message;
    if (!m.qr || m.id !== prog.queryId) return;
    return onResponse(
      op,
      stack,
      prog,
      m,
      stack.sockets.find((s) => s.id === ev.socket)?.proto === 'tcp',
    );
  }
  if (ev.kind === 'unreachable' || ev.kind === 'refused') {
    prog.transcript.push({ t, kind: 'dns-refused', server: prog.server });
    prog.socket = ev.kind === 'refused' ? undefined : prog.socket;
    return failedTry(op, stack, prog);
  }
  if (ev.kind === 'reset' || ev.kind === 'eof' || ev.kind === 'timeout') {
    prog.transcript.push({ t, kind: 'dns-timeout', server: prog.server });
    return failedTry(op, stack, prog);
  }
}

export function dnsToolTimer(op: Op, stack: HostStack, prog: DnsToolState): void {
  if (prog.wakeAt === undefined || op.ctx.now < prog.wakeAt) return;
  prog.transcript.push({ t: op.ctx.now, kind: 'dns-timeout', server: prog.server });
  failedTry(op, stack, prog);
}
