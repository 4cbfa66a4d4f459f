/**
 * The data of a node's connection tracking table (one network namespace), as plain JSON-safe
 * objects: the UI receives it as snapshots. Shapes follow struct nf_conn
 * (include/net/netfilter/nf_conntrack.h) and the ip_conntrack_status bits
 * (include/uapi/linux/netfilter/nf_conntrack_common.h).
 */
import { emptyCtStats, type CtStats } from './stats';
import { emptyBySource, emptyTupleHash, type BySource, type TupleHash } from './tuple-hash';

/** Layer-4 protocols the lab tracks (nf_conntrack_proto_{tcp,udp,icmp}.c). */
export type L4Proto = 'tcp' | 'udp' | 'icmp';

/** IANA protocol numbers, as /proc/net/nf_conntrack and conntrack print them. */
export const PROTO_NUMBER: Readonly<Record<L4Proto, number>> = { tcp: 6, udp: 17, icmp: 1 };

/**
 * struct nf_conntrack_tuple for IPv4. TCP/UDP carry ports; ICMP carries type/code/id
 * (the kernel keeps the id in src.u.icmp.id and type/code in dst.u.icmp).
 */
export type CtTuple = PortTuple | IcmpTuple;

export interface PortTuple {
  readonly proto: 'tcp' | 'udp';
  readonly src: string;
  readonly dst: string;
  readonly sport: number;
  readonly dport: number;
}

export interface IcmpTuple {
  readonly proto: 'icmp';
  readonly src: string;
  readonly dst: string;
  readonly type: number;
  readonly code: number;
  readonly id: number;
}

/** enum ip_conntrack_dir, spelled as the netfilter walk's ConntrackInfo spells it. */
export type CtDir = 'ORIGINAL' | 'REPLY';

/** enum ip_conntrack_status bits (nf_conntrack_common.h). */
export const IPS = {
  EXPECTED: 1 << 0,
  SEEN_REPLY: 1 << 1,
  ASSURED: 1 << 2,
  CONFIRMED: 1 << 3,
  SRC_NAT: 1 << 4,
  DST_NAT: 1 << 5,
  SRC_NAT_DONE: 1 << 7,
  DST_NAT_DONE: 1 << 8,
  DYING: 1 << 9,
} as const;

/** TCP conntrack states in enum tcp_conntrack order (their index is the kernel's value). */
export const TCP_STATES = [
  'NONE',
  'SYN_SENT',
  'SYN_RECV',
  'ESTABLISHED',
  'FIN_WAIT',
  'CLOSE_WAIT',
  'LAST_ACK',
  'TIME_WAIT',
  'CLOSE',
  'SYN_SENT2',
] as const;
export type TcpState = (typeof TCP_STATES)[number];

/** Packet classes of get_conntrack_index() (nf_conntrack_proto_tcp.c), in enum order. */
export type TcpIndex = 'SYN' | 'SYNACK' | 'FIN' | 'ACK' | 'RST' | 'NONE';

/**
 * struct ip_ct_tcp, reduced to what the lab tracks. No sequence-number windows are kept:
 * every segment is treated as in window, and an ACK as acknowledging everything the peer sent.
 */
export interface TcpTrack {
  state: TcpState;
  /** IP_CT_TCP_FLAG_CLOSE_INIT per direction [ORIGINAL, REPLY]: this side sent the first FIN. */
  closeInit: [boolean, boolean];
  /** IP_CT_TCP_FLAG_DATA_UNACKNOWLEDGED per direction. */
  unacked: [boolean, boolean];
  /** IP_CT_TCP_FLAG_BE_LIBERAL (set for picked-up connections). */
  liberal: boolean;
  lastIndex: TcpIndex;
  lastDir: CtDir;
  /** Retransmissions counted by tcp_in_window(); >= tcp_max_retrans caps the timeout. */
  retrans: number;
  /** IP_CT_TCP_SIMULTANEOUS_OPEN and IP_CT_EXP_CHALLENGE_ACK of last_flags. */
  simultaneousOpen: boolean;
  expectChallengeAck: boolean;
}

/** Per-direction accounting (nf_conn_acct), shown only with nf_conntrack_acct=1. */
export interface CtCounters {
  packets: number;
  bytes: number;
}

/** One connection (struct nf_conn). */
export interface CtEntry {
  /** Lab id: allocation order, 1-based (the kernel prints a hashed id with `-o id`). */
  readonly id: number;
  readonly orig: CtTuple;
  /** The expected reply; NAT setup rewrites it (nf_conntrack_alter_reply). */
  reply: CtTuple;
  /** IPS_* bits. */
  status: number;
  /** Last armed timeout in ms (the per-state value of the last refresh). */
  timeoutMs: number;
  /** Virtual time the entry expires; set when confirmed (ct->timeout += nfct_time_stamp). */
  expiresAtMs: number;
  /** Virtual time the entry was allocated (UDP's stream_ts is this + 2 s). */
  readonly createdMs: number;
  /** ct->mark (CONNMARK). */
  mark: number;
  /** Always 0: the lab has no conntrack zones. */
  readonly zone: 0;
  tcp?: TcpTrack;
  counters: [CtCounters, CtCounters];
}

/** A recorded ctnetlink event, with what the event message carried. */
export interface CtEvent {
  readonly seq: number;
  readonly atMs: number;
  readonly type: 'NEW' | 'UPDATE' | 'DESTROY';
  readonly id: number;
  readonly orig: CtTuple;
  readonly reply: CtTuple;
  readonly status: number;
  /** TCP state, present when the message carried protoinfo. */
  readonly state?: TcpState;
  /** Whole seconds left, absent when the message had none (DESTROY of an expired entry). */
  readonly timeoutS?: number;
  /** Present when non-zero or when the event was a mark change. */
  readonly mark?: number;
  /** DESTROY with accounting on. */
  readonly counters?: [CtCounters, CtCounters];
  /** Netlink port id of a userspace requester (`conntrack -D/-F`): `[USERSPACE] portid=N`. */
  readonly portid?: number;
}

/** Timeouts in seconds, named after the net.netfilter.nf_conntrack_* sysctls. */
export interface CtTimeouts {
  readonly tcpSynSent: number;
  readonly tcpSynRecv: number;
  readonly tcpEstablished: number;
  readonly tcpFinWait: number;
  readonly tcpCloseWait: number;
  readonly tcpLastAck: number;
  readonly tcpTimeWait: number;
  readonly tcpClose: number;
  /** SYN_SENT2 has no sysctl; tcp_timeouts[] fixes it at 2 minutes. */
  readonly tcpSynSent2: number;
  readonly tcpMaxRetrans: number;
  readonly tcpUnacknowledged: number;
  readonly udp: number;
  readonly udpStream: number;
  readonly icmp: number;
}

export interface CtConfig {
  readonly timeouts: CtTimeouts;
  /** net.netfilter.nf_conntrack_acct (default 0): packets=/bytes= in the views. */
  readonly acct: boolean;
  /** net.netfilter.nf_conntrack_tcp_loose (default 1): pick up mid-stream connections. */
  readonly tcpLoose: boolean;
  /** net.netfilter.nf_conntrack_tcp_max_retrans (default 3). */
  readonly tcpMaxRetrans: number;
  /** Events kept for `conntrack -E` (oldest dropped first). */
  readonly maxEvents: number;
}

/** The kernel's defaults (nf_conntrack_proto_{tcp,udp,icmp}.c). */
export const KERNEL_DEFAULT_TIMEOUTS: CtTimeouts = {
  tcpSynSent: 120,
  tcpSynRecv: 60,
  tcpEstablished: 432000,
  tcpFinWait: 120,
  tcpCloseWait: 60,
  tcpLastAck: 30,
  tcpTimeWait: 120,
  tcpClose: 10,
  tcpSynSent2: 120,
  tcpMaxRetrans: 300,
  tcpUnacknowledged: 300,
  udp: 30,
  udpStream: 120,
  icmp: 30,
};

/** Sysctl defaults of a fresh kernel. */
export function kernelDefaultConfig(): CtConfig {
  return {
    timeouts: KERNEL_DEFAULT_TIMEOUTS,
    acct: false,
    tcpLoose: true,
    tcpMaxRetrans: 3,
    maxEvents: 10000,
  };
}

/**
 * What kube-proxy writes at start-up (KubeProxyConntrackConfiguration defaults: tcpEstablishedTimeout
 * 24h, tcpCloseWaitTimeout 1h; UDP timeouts are left alone when unset).
 */
export function kubeProxyConfig(): CtConfig {
  return {
    ...kernelDefaultConfig(),
    timeouts: { ...KERNEL_DEFAULT_TIMEOUTS, tcpEstablished: 86400, tcpCloseWait: 3600 },
  };
}

/**
 * A node's table. `entries` holds confirmed and unconfirmed connections by id (integer keys
 * iterate in ascending order, so listings are in creation order); `hash` maps a tuple to
 * `id * 2 + direction` (0 ORIGINAL, 1 REPLY) for confirmed entries only (tuple-hash.ts), like the kernel's
 * hash of both tuplehash nodes; `bysource` is nf_nat_bysource (original source → ids of
 * connections with a SRC manip set up).
 */
export interface CtTable {
  config: CtConfig;
  entries: { [id: string]: CtEntry };
  hash: TupleHash;
  bysource: BySource;
  /** Count of confirmed entries (nf_conntrack_count). */
  count: number;
  nextId: number;
  events: CtEvent[];
  nextEventSeq: number;
  /** No confirmed entry expires before this (a lower bound; ctExpire scans from here). */
  nextExpiryMs: number;
  /** Next netlink port id handed to a `conntrack` invocation that changes the table. */
  nextPortid: number;
  /** The kernel's per-namespace statistics (`conntrack -S`; stats.ts says which count). */
  stats: CtStats;
}

/** An empty table. */
export function createConntrackTable(config: CtConfig = kernelDefaultConfig()): CtTable {
  return {
    config,
    entries: {},
    hash: emptyTupleHash(),
    bysource: emptyBySource(),
    count: 0,
    nextId: 1,
    events: [],
    nextEventSeq: 1,
    nextExpiryMs: Number.MAX_SAFE_INTEGER,
    nextPortid: 31154,
    stats: emptyCtStats(),
  };
}
