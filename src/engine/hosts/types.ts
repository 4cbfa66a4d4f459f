/**
 * The end hosts' socket layer: plain, JSON-safe data. Every host of the lab (a node, a pod with
 * its own network namespace, an external client) has a socket table; packets the datapath
 * delivers to a host go through `hostReceive`, packets a host sends come back as `Emitted`.
 *
 * Functions of this module mutate the `HostsState` they are given (like a kernel mutates its
 * tables) and never read the wall clock or Math.random: time and randomness come in `HostCtx`.
 */
import type { Explanation, PacketHeader } from '../../protocol/trace';
import type { Cluster } from '../model/cluster';
import type { Rng } from '../model/runtime';
import type { DnsMessage } from './dns/message';
import type { ProgramState } from './programs/types';

/** TCP options as the lab prints them (Linux's SYN: `mss 1460,sackOK,TS val … ecr 0,nop,wscale 7`). */
export interface TcpOptions {
  readonly mss?: number;
  readonly sackOK?: boolean;
  /** The timestamp option (RFC 7323): Linux sends it on every segment of a connection that negotiated it. */
  readonly ts?: { readonly val: number; readonly ecr: number };
  readonly wscale?: number;
}

/** Application data a packet carries: enough to print it like tcpdump and to answer it. */
export type Payload =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'dns'; readonly message: DnsMessage };

/**
 * A packet as the socket layer builds and reads it: the trace's `PacketHeader` (so the datapath
 * carries it unchanged; NAT rewrites addresses and ports on a copy that keeps the rest,
 * datapath/header-copy.ts, which lists every field here) plus what tcpdump prints and the
 * applications read. `length` is the IP total length, `payload` the transport payload's byte
 * count, `seq`/`ack` the TCP numbers, `inner` an ICMP error's quote. Senders write the fields in
 * header-copy.ts's HEADER_ORDER.
 */
export interface HostPacket extends PacketHeader {
  /** TCP window field as sent (scaled by the negotiated shift, except on SYNs). */
  readonly win?: number;
  readonly tcpOptions?: TcpOptions;
  /** The application data the payload bytes carry. */
  readonly data?: Payload;
}

/** A packet a host sends, with the interface it leaves by (the route's device). */
export interface Emitted {
  readonly host: string;
  readonly iface: string;
  readonly packet: HostPacket;
  /**
   * Why the host sends it, when more than "it sends": a reset names the segment no socket took
   * (the trace's send step shows it, `{host}` filled in there).
   */
  readonly why?: Explanation;
}

export interface SockAddr {
  readonly addr: string;
  readonly port: number;
}

/** Linux TCP states (include/net/tcp_states.h), as `ss` names them without the underscores. */
export type TcpState =
  | 'LISTEN'
  | 'SYN_SENT'
  | 'SYN_RECV'
  | 'ESTABLISHED'
  | 'FIN_WAIT1'
  | 'FIN_WAIT2'
  | 'CLOSE_WAIT'
  | 'CLOSING'
  | 'LAST_ACK'
  | 'TIME_WAIT'
  | 'CLOSED';

/** Who reads a socket's events: a server application or a client program (by id). */
export type Owner =
  | {
      readonly kind: 'app';
      readonly app: AppKind;
      readonly name: string;
      /**
       * Listening on one IPv4 address (kube-proxy's 127.0.0.1:10249): Go opens an AF_INET
       * socket for it, where `:PORT` gets a dual-stack IPv6 one. Accepted sockets inherit it.
       */
      readonly ipv4Only?: true;
    }
  | { readonly kind: 'program'; readonly pid: number }
  | { readonly kind: 'none' };

/** The server applications the lab runs (./apps); `name` is the pod (or node) running it. */
export type AppKind = 'http' | 'tls' | 'dns' | 'udp-echo' | 'kube-proxy';

/** A segment sent and not yet acknowledged (the retransmit queue, one entry per segment). */
export interface InFlight {
  readonly seq: number;
  /** Sequence space: payload bytes, +1 for SYN and for FIN. */
  readonly len: number;
  readonly flags: string;
  readonly payload?: Payload;
}

export interface TcpSocket {
  readonly id: number;
  readonly proto: 'tcp';
  owner: Owner;
  state: TcpState;
  readonly local: SockAddr;
  /** Absent on listeners. */
  readonly remote?: SockAddr;
  /** The interface this connection's packets leave by. */
  readonly iface: string;
  /** Active opener (connect) or passive (accepted from a listener). */
  readonly active: boolean;
  /** For an accepted socket: the listener's id. */
  readonly listener?: number;
  iss: number;
  sndUna: number;
  sndNxt: number;
  irs: number;
  rcvNxt: number;
  /** Per-connection timestamp offset (secure_tcp_ts_off): TS val = offset + clock ms. */
  readonly tsOffset: number;
  tsRecent: number;
  /**
   * tcp_select_window()'s memory: the window last advertised (bytes, unscaled: rcv_wnd) and
   * rcv_nxt when it was (rcv_wup). What is still open of it is rcv_wup + rcv_wnd - rcv_nxt.
   */
  rcvWnd: number;
  rcvWup: number;
  inFlight: InFlight[];
  /** Data the owner wrote that waits for the handshake to finish. */
  sendQueue: Payload[];
  /** The owner closed: send FIN once the send queue is empty. */
  closeRequested: boolean;
  /** The retransmission timer (absolute ms), its current RTO and how many times it fired. */
  rtxDue?: number | undefined;
  rto: number;
  retransmits: number;
  /** When the first retransmission of the current head segment was sent (retrans_stamp). */
  rtxStart?: number | undefined;
  /** A delayed ACK is owed (the FIN case: pingpong mode delays it by the ATO). */
  delayedAckDue?: number | undefined;
  /** TIME_WAIT end (absolute ms). */
  timeWaitUntil?: number | undefined;
  /**
   * The owner's read deadline (absolute ms), as Go's conn.SetReadDeadline sets one: when it
   * passes before the owner has read what it waits for, the owner gets a `deadline` event.
   */
  readDeadline?: number | undefined;
  /**
   * The owner's reader is stuck in a message that cannot complete (CoreDNS read a DNS length
   * prefix from bytes that were not DNS): it takes nothing more from the stream.
   */
  readStalled?: boolean | undefined;
  /** When the socket entered its current state. */
  since: number;
  /**
   * sk_err_soft: an ICMP error an established socket kept (tcp_v4_err without IP_RECVERR); what
   * the connection reports if it times out (tcp_write_err). Cleared when an ACK moves snd_una.
   */
  softError?: string | undefined;
}

export interface UdpSocket {
  readonly id: number;
  readonly proto: 'udp';
  owner: Owner;
  local: SockAddr;
  /** Set by connect(): only datagrams from this peer match the socket. */
  remote?: SockAddr;
  readonly iface: string;
  /** A pending asynchronous error (sk_err), reported by the next send or receive. */
  pendingError?: string | undefined;
  /** Unconnected sockets: where the last datagram went (to notice replies from elsewhere). */
  lastDst?: SockAddr | undefined;
  closed: boolean;
}

export type Socket = TcpSocket | UdpSocket;

/** One host's network stack: its addresses, routes (for source selection) and sockets. */
export interface HostStack {
  /** `node-1`, `pod/default/web-…`, or an external client's name (the trace's Place.host). */
  readonly key: string;
  /** Pods and their node: what the applications say about themselves. */
  readonly label: string;
  readonly addresses: readonly string[];
  readonly routes: readonly StackRoute[];
  readonly sockets: Socket[];
  /** net.ipv4.ip_local_port_range. */
  readonly portRange: readonly [number, number];
  readonly sysctl: TcpSysctls;
}

export interface StackRoute {
  readonly dst: string;
  readonly prefix: number;
  readonly dev: string;
  readonly src: string;
}

/** The TCP sysctls the lab reads (net.ipv4.*). */
export interface TcpSysctls {
  /** tcp_syn_retries (default 6: give up after 127 s). */
  readonly synRetries: number;
  /** tcp_synack_retries (default 5). */
  readonly synackRetries: number;
  /** tcp_retries2 (default 15: ~924.6 s for data). */
  readonly retries2: number;
  /** TCP_TIMEWAIT_LEN: 60 s, a compile-time constant in Linux (not conntrack's 120 s). */
  readonly timeWaitMs: number;
}

export interface HostsState {
  readonly hosts: Record<string, HostStack>;
  /** hostNetwork pods share their node's stack: `pod/ns/name` → node key. */
  readonly aliases: Record<string, string>;
  nextSocketId: number;
  nextPid: number;
  readonly programs: Record<number, ProgramState>;
}

/** Virtual time, randomness and the cluster as it is now (apps read it: DNS answers). */
export interface HostCtx {
  /** Virtual ms since the lab started. */
  readonly now: number;
  readonly rng: Rng;
  readonly cluster: Cluster;
  /** Unix time (s) of lab time 0: HTTP `Date:`, dig's `WHEN:`, tcpdump's clock. */
  readonly epochSeconds: number;
}

/** What happened on a socket, for the trace, the UI and the programs. */
export type SocketEventKind =
  | 'connected'
  | 'accepted'
  | 'data'
  | 'eof'
  | 'refused'
  | 'reset'
  | 'timeout'
  | 'unreachable'
  | 'closed'
  | 'unexpected-source'
  /** The socket's readDeadline passed. */
  | 'deadline';

export interface SocketEvent {
  readonly t: number;
  readonly host: string;
  readonly socket: number;
  readonly kind: SocketEventKind;
  readonly owner: Owner;
  /** `data` and `unexpected-source`: what arrived. */
  readonly data?: Payload;
  /** For datagrams and accepts: the peer the data came from. */
  readonly from?: SockAddr;
  /** For datagrams: the local address and port they were addressed to. */
  readonly to?: SockAddr;
  /** errno name for failures: ECONNREFUSED, ECONNRESET, ETIMEDOUT, EHOSTUNREACH, … */
  readonly errno?: string;
}

/** The result of delivering a packet or running timers. */
export interface HostStep {
  readonly emit: Emitted[];
  readonly events: SocketEvent[];
  /**
   * hostReceive with `ctx.explain`: which socket took the delivered packet, or that none did
   * (the trace's delivery step says it instead of just "delivered").
   */
  readonly received?: Explanation;
}
