/**
 * TCP segments as a Linux 6.1 host sends them (Debian bookworm VMs, 1500-byte MTU, default
 * tcp_rmem), with the header fields tcpdump prints. Values checked against captures of a real
 * kernel (veth pair between two network namespaces):
 *
 * - SYN: `win 64240, options [mss 1460,sackOK,TS val … ecr 0,nop,wscale 7]`, IP length 60.
 * - SYN-ACK: `win 65160` (45 × 1448: the MSS less the 12 timestamp bytes), same options.
 * - Later segments carry only `nop,nop,TS val … ecr …` (IP length 52 + payload). The window is
 *   scaled by 2^7 and chosen as tcp_select_window() does: what the receive space offers (the
 *   active opener 501, the passive one 509, as the kernel shows them once data has come in),
 *   unless that is less than what is still open of the window last advertised, which is never
 *   taken back (it is rounded up to the scale instead). So the active opener says 502 (64240
 *   rounded up) until data arrives, then 501; the kernel says 501 after a first and after a
 *   second answer alike. The receive queue is taken as read at once (the lab's applications
 *   read what arrives), and receive buffer auto-tuning is not modelled.
 * - TS val = a per-connection random offset (secure_tcp_ts_off) + the millisecond clock.
 * - A reset for a segment no socket wants (tcp_v4_send_reset): no options, `win 0`, IP length 40;
 *   if the offending segment had ACK set the reset is `R` with seq = its ack number, otherwise
 *   `R.` with seq 0 and ack = its seq + SYN + FIN + payload length.
 */
import { payloadBytes } from './net';
import type { HostPacket, Payload, TcpOptions, TcpSocket } from './types';

export const SYN_WINDOW = 64240;
export const SYNACK_WINDOW = 65160;
export const MSS = 1460;
export const WSCALE = 7;
const IP_HEADER = 20;
const TCP_HEADER = 20;
/** mss (4) + sackOK (2) + timestamps (10) + nop (1) + wscale (3). */
const SYN_OPTIONS = 20;
/** nop, nop, timestamps. */
const TS_OPTIONS = 12;
/** The window the receive space offers, in bytes (501 and 509 × 128, as the kernel shows them). */
const OFFERED_WINDOW = { active: 501 << WSCALE, passive: 509 << WSCALE };

/** Parsed TCP flags of a tcpdump-style flag string (`S`, `S.`, `P.`, `F.`, `R`, `R.`, …). */
export interface Flags {
  readonly syn: boolean;
  readonly ack: boolean;
  readonly fin: boolean;
  readonly rst: boolean;
  readonly psh: boolean;
}

export function parseFlags(flags: string | undefined): Flags {
  // Every segment a host receives asks; the texts are few (S, S., ., P., F., R…): one frozen
  // answer per text.
  const f = flags ?? '';
  let parsed = parsedFlags.get(f);
  if (parsed === undefined) {
    if (parsedFlags.size >= 256) parsedFlags.clear();
    parsed = Object.freeze({
      syn: f.includes('S'),
      ack: f.includes('.'),
      fin: f.includes('F'),
      rst: f.includes('R'),
      psh: f.includes('P'),
    });
    parsedFlags.set(f, parsed);
  }
  return parsed;
}

const parsedFlags = new Map<string, Flags>();

export function tsVal(sock: TcpSocket, now: number): number {
  return (sock.tsOffset + Math.floor(now)) >>> 0;
}

/**
 * tcp_select_window(): the window field (scaled) of a non-SYN segment about to be sent. The
 * window offered now, or, where that would take back part of the window advertised last
 * (rcv_wup + rcv_wnd - rcv_nxt is still open), that part rounded up to the scale. The socket
 * remembers what it advertised (rcv_wnd, rcv_wup = rcv_nxt).
 */
export function selectWindow(sock: TcpSocket): number {
  const scale = 1 << WSCALE;
  const offered = sock.active ? OFFERED_WINDOW.active : OFFERED_WINDOW.passive;
  const open = Math.max(0, seqDiff(seqAdd(sock.rcvWup, sock.rcvWnd), sock.rcvNxt));
  const window = offered < open ? Math.ceil(open / scale) * scale : offered;
  sock.rcvWnd = window;
  sock.rcvWup = sock.rcvNxt;
  return window / scale;
}

export function seqAdd(a: number, b: number): number {
  return (a + b) >>> 0;
}

/** a - b in sequence space (signed, RFC 1982 style). */
export function seqDiff(a: number, b: number): number {
  return ((a - b) << 0) | 0;
}

interface Fields {
  readonly seq: number;
  readonly ack: number;
  readonly win: number;
  readonly options: TcpOptions;
}

function packet(
  sock: TcpSocket,
  flags: string,
  f: Fields,
  optionBytes: number,
  data: Payload | undefined,
): HostPacket {
  const remote = sock.remote ?? { addr: '0.0.0.0', port: 0 };
  const len = data === undefined ? 0 : payloadBytes(data, 'tcp');
  const length = IP_HEADER + TCP_HEADER + optionBytes + len;
  // One literal per case, every field in it (a field added after a literal goes to a separate
  // property array: one more object per segment, and per copy of its header), in the order
  // they always had: the payload and data when there are some, then the socket's TTL
  // (net.ipv4.ip_default_ttl), last — the field the datapath would otherwise add to every
  // segment it is given (a copy of the header each time), in the place it adds it.
  if (data === undefined) {
    return {
      src: sock.local.addr,
      dst: remote.addr,
      proto: 'tcp',
      sport: sock.local.port,
      dport: remote.port,
      tcpFlags: flags,
      length,
      mark: 0,
      seq: f.seq,
      ack: f.ack,
      win: f.win,
      tcpOptions: f.options,
      ttl: DEFAULT_SOCKET_TTL,
    };
  }
  return {
    src: sock.local.addr,
    dst: remote.addr,
    proto: 'tcp',
    sport: sock.local.port,
    dport: remote.port,
    tcpFlags: flags,
    length,
    mark: 0,
    seq: f.seq,
    ack: f.ack,
    win: f.win,
    tcpOptions: f.options,
    payload: len,
    data,
    ttl: DEFAULT_SOCKET_TTL,
  };
}

const DEFAULT_SOCKET_TTL = 64;

/** SYN (active open) or SYN-ACK (passive), from the socket's ISS. */
export function synSegment(sock: TcpSocket, now: number): HostPacket {
  const synack = !sock.active;
  return packet(
    sock,
    synack ? 'S.' : 'S',
    {
      seq: sock.iss,
      ack: synack ? sock.rcvNxt : 0,
      win: synack ? SYNACK_WINDOW : SYN_WINDOW,
      options: {
        mss: MSS,
        sackOK: true,
        ts: { val: tsVal(sock, now), ecr: synack ? sock.tsRecent : 0 },
        wscale: WSCALE,
      },
    },
    SYN_OPTIONS,
    undefined,
  );
}

/** A segment of an established connection: `.`, `P.` (data), `F.`, or `R.` (active reset). */
export function dataSegment(
  sock: TcpSocket,
  flags: string,
  seq: number,
  now: number,
  payload?: Payload,
): HostPacket {
  return packet(
    sock,
    flags,
    {
      seq,
      ack: sock.rcvNxt,
      win: selectWindow(sock),
      options: { ts: { val: tsVal(sock, now), ecr: sock.tsRecent } },
    },
    TS_OPTIONS,
    payload,
  );
}

/** tcp_v4_send_reset: the answer to a segment no socket accepts (never to a reset). */
export function resetFor(incoming: HostPacket): HostPacket | undefined {
  const f = parseFlags(incoming.tcpFlags);
  if (f.rst) return undefined;
  const len =
    incoming.data === undefined ? (incoming.payload ?? 0) : payloadBytes(incoming.data, 'tcp');
  // Fields in the order every header has them (datapath/header-copy.ts HEADER_ORDER).
  const base = {
    src: incoming.dst,
    dst: incoming.src,
    proto: 'tcp' as const,
    ...(incoming.dport === undefined ? {} : { sport: incoming.dport }),
    ...(incoming.sport === undefined ? {} : { dport: incoming.sport }),
  };
  const length = IP_HEADER + TCP_HEADER;
  if (f.ack) return { ...base, tcpFlags: 'R', length, mark: 0, seq: incoming.ack ?? 0, win: 0 };
  const ack = seqAdd(incoming.seq ?? 0, len + (f.syn ? 1 : 0) + (f.fin ? 1 : 0));
  return { ...base, tcpFlags: 'R.', length, mark: 0, seq: 0, ack, win: 0 };
}
