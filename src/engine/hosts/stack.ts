/**
 * The socket layer's entry points: a packet delivered to a host, the timers, and the socket
 * calls of an owner. After each, the events the sockets raised are handed to their owners
 * (server applications, client programs) until nothing more happens, all at the same virtual time.
 */
import type { Explanation } from '../../protocol/trace';
import { appEvent } from './apps/servers';
import { stackFor } from './build';
import type { Op } from './net';
import { isLocalAddress, newOp } from './net';
import type { ProgramSpec } from './programs/run';
import { pingInput } from './programs/ping';
import { programEvent, programNextTimer, programStart, programTimers } from './programs/run';
import { tcpInput } from './tcp-input';
import { tcpDeliveryWhy, tcpLookup } from './tcp-lookup';
import { icmpDeliveryWhy, udpDeliveryWhy } from './datagram-why';
import { tcpClose, tcpConnect, tcpNextTimer, tcpTimers, tcpWrite } from './tcp-user';
import type { HostRef } from '../routing/topology';
import type {
  HostCtx,
  HostPacket,
  HostStep,
  HostsState,
  Owner,
  Payload,
  SockAddr,
  TcpSocket,
  UdpSocket,
} from './types';
import { icmpInput, udpClose, udpInput, udpOpen, udpSend } from './udp';

/** Hands every new event to its owner; owners may cause more events (handled in turn). */
export function dispatch(op: Op, from = 0): void {
  for (let i = from; i < op.events.length; i++) {
    const ev = op.events[i];
    if (ev === undefined) continue;
    const stack = op.hosts.hosts[ev.host];
    if (stack === undefined) continue;
    if (ev.owner.kind === 'app') appEvent(op, stack, ev);
    else if (ev.owner.kind === 'program') programEvent(op, stack, ev);
  }
}

function step(op: Op): HostStep {
  return { emit: op.emit, events: op.events };
}

/**
 * A packet the datapath delivered to `host` (its destination is one of the host's addresses).
 * Returns what the host sends in response and the socket events it caused; with `explain` (the
 * caller records a trace), also which socket took a TCP segment, as the socket table was.
 */
export function hostReceive(
  hosts: HostsState,
  host: HostRef | string,
  packet: HostPacket,
  ctx: HostCtx,
  explain = false,
): HostStep {
  const op = newOp(hosts, ctx);
  const stack = stackFor(hosts, host);
  // ip_local_deliver only hands up packets for the host's own addresses.
  if (stack === undefined || !isLocalAddress(stack, packet.dst)) return step(op);
  let received: Explanation | undefined;
  if (packet.proto === 'tcp') {
    if (explain) received = tcpDeliveryWhy(stack, packet, tcpLookup(stack, packet), stack.key);
    tcpInput(op, stack, packet);
  } else if (packet.proto === 'udp') {
    if (explain) received = udpDeliveryWhy(stack, packet, stack.key);
    udpInput(op, stack, packet);
  } else {
    if (explain) received = icmpDeliveryWhy(hosts, stack, packet, stack.key);
    if (!pingInput(op, stack, packet)) icmpInput(op, stack, packet);
  }
  dispatch(op);
  return received === undefined ? step(op) : { ...step(op), received };
}

/**
 * Runs every timer due at `ctx.now` (retransmissions, delayed ACKs, TIME_WAIT, programs'
 * timeouts) and tells when the next one is due.
 */
export function hostTimers(
  hosts: HostsState,
  ctx: HostCtx,
): HostStep & { readonly nextWakeup: number | undefined } {
  const op = newOp(hosts, ctx);
  for (const stack of Object.values(hosts.hosts)) tcpTimers(op, stack);
  programTimers(op);
  dispatch(op);
  return { ...step(op), nextWakeup: nextWakeup(hosts) };
}

/** The earliest pending timer of any host or program. */
export function nextWakeup(hosts: HostsState): number | undefined {
  let next = programNextTimer(hosts);
  for (const stack of Object.values(hosts.hosts)) {
    const t = tcpNextTimer(stack);
    if (t !== undefined && (next === undefined || t < next)) next = t;
  }
  return next;
}

export type OpenResult<S> = HostStep & { readonly socket?: S; readonly errno?: string };

/** connect() from `host` to `dst:dport`: sends the SYN. `data` is written once connected. */
export function openTcp(
  hosts: HostsState,
  host: HostRef | string,
  dst: string,
  dport: number,
  ctx: HostCtx,
  opts: { readonly owner?: Owner; readonly data?: Payload } = {},
): OpenResult<TcpSocket> {
  const op = newOp(hosts, ctx);
  const stack = stackFor(hosts, host);
  if (stack === undefined) return { ...step(op), errno: 'ENODEV' };
  const r = tcpConnect(
    op,
    stack,
    { addr: dst, port: dport },
    {
      owner: opts.owner ?? { kind: 'none' },
      ...(opts.data === undefined ? {} : { data: opts.data }),
    },
  );
  dispatch(op);
  return 'errno' in r ? { ...step(op), errno: r.errno } : { ...step(op), socket: r };
}

/** A UDP socket on `host`, bound to `port` (or an ephemeral one) and optionally connected. */
export function openUdp(
  hosts: HostsState,
  host: HostRef | string,
  ctx: HostCtx,
  opts: { readonly owner?: Owner; readonly port?: number; readonly connect?: SockAddr } = {},
): OpenResult<UdpSocket> {
  const op = newOp(hosts, ctx);
  const stack = stackFor(hosts, host);
  if (stack === undefined) return { ...step(op), errno: 'ENODEV' };
  const r = udpOpen(op, stack, {
    owner: opts.owner ?? { kind: 'none' },
    ...(opts.port === undefined ? {} : { port: opts.port }),
    ...(opts.connect === undefined ? {} : { connect: opts.connect }),
  });
  return 'errno' in r ? { ...step(op), errno: r.errno } : { ...step(op), socket: r };
}

function findSocket(hosts: HostsState, id: number) {
  for (const stack of Object.values(hosts.hosts)) {
    // Ids are unique; from the end, since the sockets a caller holds were mostly opened last
    // (a client's older connections linger in TIME_WAIT before them).
    const list = stack.sockets;
    for (let i = list.length - 1; i >= 0; i--) {
      const sock = list[i]!;
      if (sock.id === id) return { stack, sock };
    }
  }
  return undefined;
}

/** write()/sendto() on a socket: TCP data (queued until connected), or a UDP datagram. */
export function sendData(
  hosts: HostsState,
  socket: number,
  data: Payload,
  ctx: HostCtx,
  to?: SockAddr,
): HostStep & { readonly errno?: string } {
  const op = newOp(hosts, ctx);
  const found = findSocket(hosts, socket);
  if (found === undefined) return { ...step(op), errno: 'EBADF' };
  let errno: string | undefined;
  if (found.sock.proto === 'tcp') tcpWrite(op, found.stack, found.sock, data);
  else errno = udpSend(op, found.stack, found.sock, data, to).errno;
  dispatch(op);
  return errno === undefined ? step(op) : { ...step(op), errno };
}

/** close(): TCP sends its FIN (or vanishes while connecting); UDP just goes away. */
export function closeSocket(hosts: HostsState, socket: number, ctx: HostCtx): HostStep {
  const op = newOp(hosts, ctx);
  const found = findSocket(hosts, socket);
  if (found !== undefined) {
    if (found.sock.proto === 'tcp') tcpClose(op, found.stack, found.sock);
    else udpClose(found.stack, found.sock);
  }
  dispatch(op);
  return step(op);
}

/** Starts a client program (curl, nc, dig, nslookup) on `host`; its first packets are emitted. */
export function startProgram(
  hosts: HostsState,
  host: HostRef | string,
  spec: ProgramSpec,
  ctx: HostCtx,
): HostStep & { readonly pid: number } {
  const op = newOp(hosts, ctx);
  const pid = programStart(op, host, spec);
  dispatch(op);
  return { ...step(op), pid };
}
