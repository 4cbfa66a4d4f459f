/**
 * TCP connection tracking as nf_conntrack_proto_tcp.c does it: tcp_error()'s flag check,
 * tcp_new(), the tcp_conntracks[2][6][10] transition table and nf_conntrack_tcp_packet().
 *
 * Not modelled: sequence and window tracking (tcp_in_window). Every segment is taken as in
 * window, an ACK as acknowledging everything the peer sent so far, and a SYN-ACK answering an
 * ignored SYN as matching it. What the windows feed into timeouts is kept: data or a FIN not
 * yet acknowledged caps the timeout at `unacknowledged` (IP_CT_TCP_FLAG_DATA_UNACKNOWLEDGED),
 * and `retransmission` packets count towards `max_retrans`.
 */
import { IPS, TCP_STATES, type CtDir, type CtEntry, type CtTable } from './model';
import type { TcpIndex, TcpState, TcpTrack, CtTimeouts } from './model';
import type { CtPacket, TcpFlags } from './tuple';

type Cell = TcpState | 'IV' | 'IG';

const [sNO, sSS, sSR, sES, sFW, sCW, sLA, sTW, sCL, sS2] = TCP_STATES;
const sIV = 'IV';
const sIG = 'IG';

/** tcp_conntracks[dir][index][old state]; columns in TCP_STATES order, rows SYN…NONE. */
const TABLE: Record<CtDir, Record<TcpIndex, readonly Cell[]>> = {
  ORIGINAL: {
    SYN: [sSS, sSS, sIG, sIG, sIG, sIG, sIG, sSS, sSS, sS2],
    SYNACK: [sIV, sIV, sSR, sIV, sIV, sIV, sIV, sIV, sIV, sSR],
    FIN: [sIV, sIV, sFW, sFW, sLA, sLA, sLA, sTW, sCL, sIV],
    ACK: [sES, sIV, sES, sES, sCW, sCW, sTW, sTW, sCL, sIV],
    RST: [sIV, sCL, sCL, sCL, sCL, sCL, sCL, sCL, sCL, sCL],
    NONE: Array<Cell>(10).fill(sIV),
  },
  REPLY: {
    SYN: [sIV, sS2, sIV, sIV, sIV, sIV, sIV, sSS, sIV, sS2],
    SYNACK: [sIV, sSR, sIG, sIG, sIG, sIG, sIG, sIG, sIG, sSR],
    FIN: [sIV, sIV, sFW, sFW, sLA, sLA, sLA, sTW, sCL, sIV],
    ACK: [sIV, sIG, sSR, sES, sCW, sCW, sTW, sTW, sCL, sIG],
    RST: [sIV, sCL, sCL, sCL, sCL, sCL, sCL, sCL, sCL, sCL],
    NONE: Array<Cell>(10).fill(sIV),
  },
};

function order(s: TcpState): number {
  return TCP_STATES.indexOf(s);
}

function transition(dir: CtDir, index: TcpIndex, old: TcpState): Cell {
  return TABLE[dir][index][order(old)] ?? sIV;
}

/** get_conntrack_index(): RST, then SYN (with or without ACK), FIN, ACK. */
export function tcpIndex(f: TcpFlags): TcpIndex {
  if (f.rst) return 'RST';
  if (f.syn) return f.ack ? 'SYNACK' : 'SYN';
  if (f.fin) return 'FIN';
  if (f.ack) return 'ACK';
  return 'NONE';
}

/** tcp_valid_flags[] of tcp_error(): PSH (and ECE/CWR) aside, only these combinations pass. */
export function tcpFlagsValid(f: TcpFlags): boolean {
  // The flags as a bit set (no key string or list built per packet): S R F A U.
  const bits =
    (f.syn ? SYN : 0) |
    (f.rst ? RST : 0) |
    (f.fin ? FIN : 0) |
    (f.ack ? ACK : 0) |
    (f.urg ? URG : 0);
  return VALID_FLAGS[bits] === 1;
}

const SYN = 1;
const RST = 2;
const FIN = 4;
const ACK = 8;
const URG = 16;
/** By bit set: 1 for S, SU, SA, R, RA, FA, FAU, A, AU (tcp_valid_flags[]). */
const VALID_FLAGS: Uint8Array = (() => {
  const valid = new Uint8Array(32);
  for (const bits of [
    SYN,
    SYN | URG,
    SYN | ACK,
    RST,
    RST | ACK,
    FIN | ACK,
    FIN | ACK | URG,
    ACK,
    ACK | URG,
  ])
    valid[bits] = 1;
  return valid;
})();

/**
 * tcp_new(): may this packet start a connection? A SYN opens SYN_SENT; with tcp_loose any
 * other packet the table accepts from NONE (a bare ACK) picks the connection up mid-stream.
 */
export function tcpNew(table: CtTable, flags: TcpFlags): TcpTrack | string {
  const index = tcpIndex(flags);
  const state = transition('ORIGINAL', index, sNO);
  if (state === sIV || state === sIG) return `invalid new (${index} cannot start a connection)`;
  if (state !== sSS && !table.config.tcpLoose) return 'nf_conntrack_tcp_loose=0: no pickup';
  return {
    state: sNO,
    closeInit: [false, false],
    unacked: [false, false],
    liberal: state !== sSS,
    lastIndex: 'NONE',
    lastDir: 'ORIGINAL',
    retrans: 0,
    simultaneousOpen: false,
    expectChallengeAck: false,
  };
}

/** What nf_conntrack_tcp_packet() decided. */
export type TcpOutcome =
  /** In-window: new state set, timeout refreshed (`timeoutMs`), unless `noRefresh`. */
  | {
      readonly kind: 'accept';
      readonly old: TcpState;
      readonly timeoutMs: number;
      readonly noRefresh: boolean;
    }
  /** NF_ACCEPT without a state change (sIG, challenge ACK). */
  | { readonly kind: 'ignore'; readonly reason: string }
  /** -NF_ACCEPT: the packet gets no conntrack (ctstate INVALID); the entry is unchanged. */
  | { readonly kind: 'invalid'; readonly reason: string }
  /** -NF_REPEAT: a SYN reopens a closed connection; kill it and look the packet up again. */
  | { readonly kind: 'repeat' }
  /** nf_ct_kill_acct(): an RST was the only answer; the packet passes, the entry is gone. */
  | { readonly kind: 'kill' };

/** The timeout of state `s` (a switch: no table of every state's timeout built per packet). */
export function timeoutFor(t: CtTimeouts, s: TcpState): number {
  switch (s) {
    case 'NONE':
    case 'SYN_SENT':
      return t.tcpSynSent;
    case 'SYN_RECV':
      return t.tcpSynRecv;
    case 'ESTABLISHED':
      return t.tcpEstablished;
    case 'FIN_WAIT':
      return t.tcpFinWait;
    case 'CLOSE_WAIT':
      return t.tcpCloseWait;
    case 'LAST_ACK':
      return t.tcpLastAck;
    case 'TIME_WAIT':
      return t.tcpTimeWait;
    case 'CLOSE':
      return t.tcpClose;
    case 'SYN_SENT2':
      return t.tcpSynSent2;
  }
}

/**
 * nf_conntrack_tcp_packet() for a packet of direction `dir` on `entry` (whose `tcp` is set).
 * Mutates the tracking state; the caller applies the refresh, events and SEEN_REPLY.
 */
export function tcpPacket(
  table: CtTable,
  entry: CtEntry,
  dir: CtDir,
  packet: CtPacket,
): TcpOutcome {
  const tcp = entry.tcp;
  if (tcp === undefined) return { kind: 'invalid', reason: 'not a TCP connection' };
  const flags = packet.tcpFlags ?? {};
  const index = tcpIndex(flags);
  const d = dir === 'ORIGINAL' ? 0 : 1;
  let old = tcp.state;
  let next = transition(dir, index, old);

  if (next === sSS && order(old) >= order(sTW)) {
    // Reopen of a closed/aborted connection: only if a side started the close, or this side
    // sent the last packet and it was an RST. Otherwise the SYN is treated as ignored.
    if (tcp.closeInit[0] || tcp.closeInit[1] || (tcp.lastDir === dir && tcp.lastIndex === 'RST'))
      return { kind: 'repeat' };
    next = sIG;
  }
  if (next === sIG) {
    if (index === 'SYNACK' && tcp.lastIndex === 'SYN' && tcp.lastDir !== dir) {
      // b) a SYN-ACK answering a SYN we ignored: client and server are in sync, we are not.
      old = sSS;
      next = sSR;
      tcp.closeInit = [false, false];
      tcp.unacked = [false, false];
    } else {
      tcp.lastIndex = index;
      tcp.lastDir = dir;
      if (index === 'SYN' && dir === 'ORIGINAL') tcp.expectChallengeAck = old === sLA;
      return { kind: 'ignore', reason: `${index} in ${dir} ignored in state ${old}` };
    }
  }
  if (next === sIV) {
    return { kind: 'invalid', reason: `${index} in ${dir} invalid in state ${old}` };
  }
  if (
    next === sTW &&
    old === sLA &&
    index === 'ACK' &&
    tcp.lastDir !== dir &&
    tcp.lastIndex === 'SYN' &&
    tcp.expectChallengeAck
  ) {
    tcp.expectChallengeAck = false;
    return { kind: 'ignore', reason: 'challenge-ack ignored' };
  }
  if (next === sS2) tcp.simultaneousOpen = true;
  if (next === sSR && dir === 'REPLY' && index === 'ACK' && tcp.simultaneousOpen) next = sES;

  // tcp_in_window(), reduced: data/FIN leave the sender unacknowledged until the peer ACKs.
  const sendsData = (packet.payloadBytes ?? 0) > 0 || flags.fin === true;
  if (sendsData && !packet.retransmission && !flags.syn) tcp.unacked[d] = true;
  if (flags.ack) tcp.unacked[1 - d] = false;
  if (index === 'ACK') {
    tcp.retrans = packet.retransmission && tcp.lastDir === dir ? tcp.retrans + 1 : 0;
  }

  tcp.lastIndex = index;
  tcp.lastDir = dir;
  tcp.state = next;
  if (old !== next && next === sFW) tcp.closeInit[d] = true;

  const t = table.config.timeouts;
  const stateTimeout = timeoutFor(t, next);
  let timeout: number;
  if (tcp.retrans >= table.config.tcpMaxRetrans && stateTimeout > t.tcpMaxRetrans)
    timeout = t.tcpMaxRetrans;
  else if (index === 'RST') timeout = t.tcpClose;
  else if ((tcp.unacked[0] || tcp.unacked[1]) && stateTimeout > t.tcpUnacknowledged)
    timeout = t.tcpUnacknowledged;
  else timeout = stateTimeout;

  let noRefresh = false;
  if (!(entry.status & IPS.SEEN_REPLY)) {
    // "If only reply is a RST, we can consider ourselves not to have an established
    // connection": delete at once.
    if (flags.rst) return { kind: 'kill' };
    // Do not renew the timeout on SYN retransmits, or port reuse keeps the entry alive.
    if (index === 'SYN' && old === sSS) noRefresh = true;
    // Mid-connection pickup: no large ESTABLISHED timeout before a reply.
    if (next === sES && timeout > t.tcpUnacknowledged) timeout = t.tcpUnacknowledged;
  }
  return { kind: 'accept', old, timeoutMs: timeout * 1000, noRefresh };
}
