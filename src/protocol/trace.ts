/**
 * The trace format: what happened to every packet, step by step, as the engine computed it.
 * The web lab animates exactly this, and `kube-proxy-lab run --json` prints it. Types only,
 * JSON-safe (no classes, Maps or functions), so a trace can be saved, diffed and replayed.
 *
 * Bump TRACE_PROTOCOL_VERSION on any change a consumer could notice.
 */
/** v3: an ICMP error's quoted header carries an echo request's sequence number (`seq`). */
export const TRACE_PROTOCOL_VERSION = 3;

export type Hook = 'PREROUTING' | 'INPUT' | 'FORWARD' | 'OUTPUT' | 'POSTROUTING';
export type TableName = 'raw' | 'mangle' | 'nat' | 'filter' | 'security';

/** Where on the graph: a host (node name, `pod/ns/name`, external client name) and an interface. */
export interface Place {
  readonly host: string;
  readonly iface?: string;
}

/** The IPv4 + L4 header fields the lab tracks (what tcpdump and conntrack show). */
export interface PacketHeader {
  readonly src: string;
  readonly dst: string;
  readonly proto: 'tcp' | 'udp' | 'icmp';
  readonly sport?: number;
  readonly dport?: number;
  /** TCP flags as tcpdump prints them: `S`, `S.`, `.`, `P.`, `F.`, `R`, `R.`. */
  readonly tcpFlags?: string;
  /** ICMP type/code (e.g. 3/3 port unreachable); `id` for echo request/reply. */
  readonly icmp?: { readonly type: number; readonly code: number; readonly id?: number };
  /** IP total length (header + transport header + payload). */
  readonly length: number;
  /** skb->mark (KUBE-MARK-MASQ sets 0x4000). */
  readonly mark: number;
  /** IP TTL; absent = 64 (net.ipv4.ip_default_ttl). Routers decrement it; bridges do not. */
  readonly ttl?: number;
  /** Transport payload bytes (tcpdump's `length N`); absent = 0. */
  readonly payload?: number;
  /** TCP sequence and acknowledgement numbers, when the sender tracks them. */
  readonly seq?: number;
  readonly ack?: number;
  /** ICMP errors: the header of the packet the error is about, as it was then. */
  readonly inner?: EmbeddedHeader;
}

/** The IP header + first 8 bytes of a packet, as an ICMP error quotes them. */
export interface EmbeddedHeader {
  readonly src: string;
  readonly dst: string;
  readonly proto: 'tcp' | 'udp' | 'icmp';
  readonly sport?: number;
  readonly dport?: number;
  readonly icmp?: { readonly type: number; readonly code: number; readonly id?: number };
  /** An echo request's sequence number (the quoted 8 bytes hold the id and the sequence). */
  readonly seq?: number;
}

/**
 * Why a step happened, as a message id with parameters: the UI renders it in zh-CN or English
 * (the ids are keys of its i18n catalogue); the CLI renders the English text.
 */
export interface Explanation {
  readonly id: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

interface StepBase {
  /** Position in the whole trace (0, 1, 2, …). */
  readonly seq: number;
  /** Virtual time, ms since the lab started. */
  readonly t: number;
  /**
   * The packet this step belongs to; a packet keeps its id across NAT rewrites. 0: no packet
   * caused the step (kube-proxy deleting a conntrack entry after a sync).
   */
  readonly packetId: number;
  /** The connection (conntrack entry) the packet belongs to, once known. */
  readonly flowId?: number;
  readonly at: Place;
  readonly why: Explanation;
}

export type TraceStep =
  | (StepBase & { readonly kind: 'send'; readonly packet: PacketHeader })
  | (StepBase & { readonly kind: 'wire'; readonly to: Place; readonly packet: PacketHeader })
  | (StepBase & {
      readonly kind: 'hook';
      readonly hook: Hook;
      readonly tables: readonly TableName[];
    })
  | (StepBase & {
      readonly kind: 'rule';
      readonly hook: Hook;
      readonly table: TableName;
      readonly chain: string;
      /** 1-based, as `iptables -L --line-numbers` and TRACE number rules. */
      readonly ruleNum: number;
      /** The rule as `iptables -S` prints it. */
      readonly rule: string;
      readonly matched: boolean;
      /** jump/goto target, `RETURN`, a verdict, or `continue`. */
      readonly outcome: string;
    })
  | (StepBase & {
      readonly kind: 'policy';
      readonly hook: Hook;
      readonly table: TableName;
      readonly chain: string;
      readonly policy: 'ACCEPT' | 'DROP';
    })
  | (StepBase & {
      readonly kind: 'nat';
      readonly hook: Hook;
      /** dnat/snat: set up by a rule on the first packet; undnat/unsnat: a reply rewritten from the conntrack entry. */
      readonly manip: 'dnat' | 'snat' | 'undnat' | 'unsnat';
      readonly before: PacketHeader;
      readonly after: PacketHeader;
    })
  | (StepBase & {
      readonly kind: 'conntrack';
      readonly event: 'new' | 'confirmed' | 'update' | 'destroy' | 'hit';
      /** The entry as `conntrack -L` prints it, at this moment. */
      readonly entry: string;
      readonly ctstate: 'NEW' | 'ESTABLISHED' | 'RELATED' | 'INVALID' | 'UNTRACKED';
    })
  | (StepBase & {
      readonly kind: 'route';
      readonly decision: 'local' | 'forward' | 'output';
      readonly oif?: string;
      readonly via?: string;
    })
  | (StepBase & {
      readonly kind: 'bridge';
      readonly bridge: string;
      readonly inPort: string;
      readonly outPort?: string;
      /** br_netfilter hands bridged IPv4 frames to iptables (net.bridge.bridge-nf-call-iptables=1). */
      readonly callIptables: boolean;
    })
  | (StepBase & {
      readonly kind: 'verdict';
      readonly verdict: 'ACCEPT' | 'DROP' | 'REJECT' | 'DELIVERED' | 'LOST';
    })
  /**
   * IPVS (ip_vs) handled the packet (protocol v2): a request to a virtual server at LOCAL_IN
   * (or LOCAL_OUT for the node's own), or a real server's reply at FORWARD/LOCAL_IN.
   */
  | (StepBase & {
      readonly kind: 'ipvs';
      readonly hook: Hook;
      /** The virtual server as ipvsadm names it: `TCP  10.96.0.10:53`. */
      readonly service: string;
      readonly scheduler: string;
      /**
       * schedule: the scheduler picked a real server for a new connection; persistent: the
       * client's persistence template chose it; existing: the packet belongs to a connection;
       * reply: a real server's answer, source restored to the virtual server; no-destination:
       * no real server available (ICMP port unreachable); expired: expire_nodest_conn ended a
       * connection whose real server is gone.
       */
      readonly action:
        'schedule' | 'persistent' | 'existing' | 'reply' | 'no-destination' | 'expired';
      /** `ip:port` of the real server. */
      readonly realServer?: string;
      readonly forward?: 'Masq' | 'Local' | 'Tunnel' | 'Route';
      /** The IPVS connection's state after this packet, as `ipvsadm -Lnc` prints it. */
      readonly connState?: string;
      readonly before?: PacketHeader;
      readonly after?: PacketHeader;
    })
  | NftRuleStep;

/**
 * (v2) One nftables rule evaluated in a base chain's walk (kube-proxy's nftables mode): the
 * rule as `nft list` prints it, whether it matched, what it did, and the set or map lookup it
 * made (`service-ips` with the key `10.96.0.10 . udp . 53`, `numgen` with the number drawn).
 */
export type NftRuleStep = StepBase & {
  readonly kind: 'nft-rule';
  readonly hook: Hook;
  readonly family: 'ip';
  readonly table: string;
  readonly chain: string;
  /** The rule's handle, as `nft -a list` shows it. */
  readonly handle: number;
  readonly rule: string;
  readonly matched: boolean;
  /** `continue`, `jump X`, `goto X`, `return`, `accept`, `drop`, `reject`, `dnat to …`, `masquerade`, or `policy accept`. */
  readonly outcome: string;
  readonly lookup?: {
    readonly set: string;
    readonly key: string;
    readonly found: boolean;
    readonly value?: string;
  };
};

/** A whole trace, as `kube-proxy-lab run --json` writes it. */
export interface Trace {
  readonly version: typeof TRACE_PROTOCOL_VERSION;
  readonly scenario: string;
  readonly seed: number;
  readonly steps: readonly TraceStep[];
}
