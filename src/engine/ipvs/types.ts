/**
 * IPVS (net/netfilter/ipvs) as plain data: virtual services, their real servers
 * (destinations) and the connection table. One `IpvsState` per node (network namespace).
 * The functions that change it are in table.ts (services/destinations, ip_vs_ctl.c),
 * conn.ts (connections, ip_vs_conn.c / ip_vs_proto_tcp.c) and schedulers.ts.
 */

export type IpvsProtocol = 'TCP' | 'UDP' | 'SCTP';

/** IPPROTO_* numbers: libipvs sorts services by them (TCP 6 < UDP 17 < SCTP 132). */
export const IPVS_PROTOCOL_NUMBERS: Readonly<Record<IpvsProtocol, number>> = {
  TCP: 6,
  UDP: 17,
  SCTP: 132,
};

/** Forwarding method (IP_VS_CONN_F_FWD_MASK): ipvsadm prints Masq, Local, Tunnel, Route. */
export type ForwardMethod = 'Masq' | 'Local' | 'Tunnel' | 'Route';

/** include/uapi/linux/ip_vs.h IP_VS_SVC_F_*. */
export const SVC_F_PERSISTENT = 0x0001;
export const SVC_F_HASHED = 0x0002;
export const SVC_F_ONEPACKET = 0x0004;
export const SVC_F_SCHED1 = 0x0008;
export const SVC_F_SCHED2 = 0x0010;
export const SVC_F_SCHED3 = 0x0020;

/** Packet/byte counters as `ipvsadm -L --stats` shows them (struct ip_vs_kstats). */
export interface IpvsStats {
  conns: number;
  inpkts: number;
  outpkts: number;
  inbytes: number;
  outbytes: number;
}

export interface Destination {
  readonly addr: string;
  readonly port: number;
  weight: number;
  /** atomic last_weight: the weight before it was last set to 0 (mh keeps placing it). */
  lastWeight: number;
  readonly fwd: ForwardMethod;
  activeConns: number;
  inactConns: number;
  persistConns: number;
  readonly stats: IpvsStats;
  /** Removed from the service but still referenced by connections (ip_vs_dest trash). */
  available: boolean;
}

export interface VirtualService {
  readonly protocol: IpvsProtocol;
  readonly addr: string;
  readonly port: number;
  scheduler: string;
  /** IP_VS_SVC_F_* bits. */
  flags: number;
  /** Persistence timeout in seconds (with SVC_F_PERSISTENT). */
  timeout: number;
  /** Persistence netmask (dotted quad); /32 by default. */
  netmask: string;
  /** In the order they were added (svc->destinations list): schedulers walk it in this order. */
  destinations: Destination[];
  /** The scheduler's private data (rr position, wrr mark, sh/dh/mh tables). */
  sched: SchedulerData;
  readonly stats: IpvsStats;
}

export type SchedulerData =
  | { readonly kind: 'none' }
  /** rr: the destination chosen last (undefined = the list head). */
  | { readonly kind: 'rr'; last: Destination | undefined }
  /** wrr: struct ip_vs_wrr_mark. */
  | { readonly kind: 'wrr'; cl: Destination | undefined; cw: number; mw: number; di: number }
  /** sh, dh (256 buckets) and mh (lookup table of a prime size). */
  | { readonly kind: 'table'; buckets: (Destination | undefined)[] };

/** TCP states of ip_vs_proto_tcp.c, in the kernel's enum order. */
export const TCP_STATES = [
  'NONE',
  'ESTABLISHED',
  'SYN_SENT',
  'SYN_RECV',
  'FIN_WAIT',
  'TIME_WAIT',
  'CLOSE',
  'CLOSE_WAIT',
  'LAST_ACK',
  'LISTEN',
  'SYNACK',
] as const;
export type IpvsTcpState = (typeof TCP_STATES)[number];

/** A connection entry (struct ip_vs_conn); `/proc/net/ip_vs_conn` and `ipvsadm -Lnc` list them. */
export interface IpvsConn {
  readonly protocol: IpvsProtocol;
  readonly caddr: string;
  readonly cport: number;
  readonly vaddr: string;
  readonly vport: number;
  readonly daddr: string;
  readonly dport: number;
  /** The destination it is bound to (undefined once the real server is gone). */
  dest: Destination | undefined;
  /** TCP state, `UDP` for UDP (ip_vs_proto_udp.c has one state), NONE for templates. */
  state: IpvsTcpState | 'UDP';
  /** IP_VS_CONN_F_INACTIVE: counted in InActConn rather than ActiveConn. */
  inactive: boolean;
  /** A persistence template (client port 0, SVC_F_PERSISTENT services). */
  readonly template: boolean;
  /** Absolute expiry time, ms of virtual time. */
  expiresAt: number;
  /** Timeout of the current state, ms (re-armed on every packet). */
  timeoutMs: number;
}

/** `ipvsadm --set` values; 0 = keep the kernel default. Seconds. */
export interface IpvsTimeouts {
  tcp: number;
  tcpfin: number;
  udp: number;
}

export interface IpvsState {
  /** In creation order; ipvsadm sorts them for display. */
  services: VirtualService[];
  /** The same services by serviceKey() (ip_vs_svc_table, the kernel's hash of them). */
  readonly byKey: Map<string, VirtualService>;
  conns: IpvsConn[];
  timeouts: IpvsTimeouts;
}

export function createIpvsState(): IpvsState {
  return {
    services: [],
    byKey: new Map(),
    conns: [],
    timeouts: { tcp: 900, tcpfin: 120, udp: 300 },
  };
}

export function emptyStats(): IpvsStats {
  return { conns: 0, inpkts: 0, outpkts: 0, inbytes: 0, outbytes: 0 };
}

/** `TCP 10.96.0.1:443`: how the lab names a virtual service (kube-proxy's VirtualServer.String form). */
export function serviceKey(protocol: IpvsProtocol, addr: string, port: number): string {
  return `${addr}:${port}/${protocol}`;
}
