/**
 * The iptables (nf_tables backend) state of one node as plain, JSON-safe data.
 *
 * Rules are kept in a structured form that holds exactly what the kernel keeps (the xt_*
 * match/target info structs), so every view can be rendered byte for byte the way iptables
 * 1.8.9 renders it: e.g. a statistic probability is kept as the 31-bit threshold the kernel
 * compares against, a MARK target as the value/mask pair of xt_MARK revision 2.
 */

export type TableName = 'raw' | 'mangle' | 'nat' | 'filter' | 'security';

export interface Counters {
  packets: number;
  bytes: number;
}

/** `-s`/`-d`: address and prefix length; the address has its host bits cleared (iptables masks it). */
export interface AddrSpec {
  readonly addr: string;
  readonly prefix: number;
  readonly invert: boolean;
}

/** `-i`/`-o`: a name, possibly ending in `+` (prefix match, xtables_parse_interface). */
export interface IfaceSpec {
  readonly name: string;
  readonly invert: boolean;
}

/** An inclusive port range; `min === max` for a single port. */
export interface PortRange {
  readonly min: number;
  readonly max: number;
  readonly invert: boolean;
}

/** Connection tracking states in the order print_state() of libxt_conntrack lists them. */
export const CT_STATES = [
  'INVALID',
  'NEW',
  'RELATED',
  'ESTABLISHED',
  'UNTRACKED',
  'SNAT',
  'DNAT',
] as const;
export type CtState = (typeof CT_STATES)[number];

/** Route types in kernel order (RTN_* values; libxt_addrtype prints them in this order). */
export const ADDR_TYPES = [
  'UNSPEC',
  'UNICAST',
  'LOCAL',
  'BROADCAST',
  'ANYCAST',
  'MULTICAST',
  'BLACKHOLE',
  'UNREACHABLE',
  'PROHIBIT',
  'THROW',
  'NAT',
  'XRESOLVE',
] as const;
export type AddrType = (typeof ADDR_TYPES)[number];

export interface CommentMatch {
  readonly name: 'comment';
  readonly comment: string;
}
/** tcp/udp/sctp: `-m tcp` with no port keeps `sport`/`dport` undefined (the full 0:65535 range). */
export interface PortsMatch {
  readonly name: 'tcp' | 'udp' | 'sctp';
  readonly sport?: PortRange;
  readonly dport?: PortRange;
  /** tcp `--tcp-flags MASK COMP` (`--syn` is FIN,SYN,RST,ACK SYN): (flags & mask) == cmp. */
  readonly flags?: TcpFlagsMatch;
}

/** xt_tcp's flg_mask/flg_cmp (bits as in the TCP header: FIN 0x01 … URG 0x20) and inversion. */
export interface TcpFlagsMatch {
  readonly mask: number;
  readonly cmp: number;
  readonly invert: boolean;
}
export interface MultiportMatch {
  readonly name: 'multiport';
  readonly dir: 'sports' | 'dports' | 'ports';
  /** Single ports have min === max (xt_multiport_v1 pflags). */
  readonly ports: readonly { readonly min: number; readonly max: number }[];
  readonly invert: boolean;
}
export interface StatisticMatch {
  readonly name: 'statistic';
  readonly mode: 'random' | 'nth';
  /** random: the kernel threshold P = lround(p * 2^31); a packet matches when (rand & 0x7fffffff) < P. */
  readonly probability: number;
  /** nth: `--every n` (kept as n, the kernel stores n - 1) and `--packet p`. */
  readonly every: number;
  readonly packet: number;
  readonly invert: boolean;
}
export interface RecentMatch {
  readonly name: 'recent';
  readonly op: 'set' | 'rcheck' | 'update' | 'remove';
  readonly invert: boolean;
  /** 0 = not given. */
  readonly seconds: number;
  readonly reap: boolean;
  /** 0 = not given. */
  readonly hitcount: number;
  readonly rttl: boolean;
  /** The list name; `DEFAULT` when not given (recent_init). */
  readonly listName: string;
  readonly side: 'source' | 'dest';
  /** Dotted quad, 255.255.255.255 by default (revision 1). */
  readonly mask: string;
}
export interface MarkMatch {
  readonly name: 'mark';
  /** Unsigned 32-bit values; mask 0xffffffff when not given. */
  readonly mark: number;
  readonly mask: number;
  readonly invert: boolean;
}
export interface ConntrackMatch {
  readonly name: 'conntrack';
  readonly states: readonly CtState[];
  readonly invert: boolean;
}
export interface AddrtypeMatch {
  readonly name: 'addrtype';
  readonly src?: { readonly types: readonly AddrType[]; readonly invert: boolean };
  readonly dst?: { readonly types: readonly AddrType[]; readonly invert: boolean };
  readonly limitIfaceIn: boolean;
  readonly limitIfaceOut: boolean;
}
export interface NfacctMatch {
  readonly name: 'nfacct';
  readonly objectName: string;
}
export interface SetMatch {
  readonly name: 'set';
  readonly setName: string;
  /** One entry per dimension, e.g. ['dst', 'dst'] for `dst,dst`. */
  readonly dims: readonly ('src' | 'dst')[];
  readonly invert: boolean;
  readonly returnNomatch: boolean;
}
export interface PhysdevMatch {
  readonly name: 'physdev';
  readonly isIn?: { readonly invert: boolean };
  readonly physIn?: IfaceSpec;
  readonly isOut?: { readonly invert: boolean };
  readonly physOut?: IfaceSpec;
  readonly isBridged?: { readonly invert: boolean };
}
/** `-m ipvs` (xt_ipvs); modelled for the IPVS proxier, not used by kube-proxy's iptables mode. */
export interface IpvsMatch {
  readonly name: 'ipvs';
  readonly ipvs?: { readonly invert: boolean };
  readonly vproto?: { readonly proto: number; readonly invert: boolean };
  readonly vaddr?: AddrSpec;
  readonly vport?: { readonly port: number; readonly invert: boolean };
  readonly vdir?: 'ORIGINAL' | 'REPLY';
  readonly vmethod?: { readonly method: 'GATE' | 'IPIP' | 'MASQ'; readonly invert: boolean };
}

/**
 * `-p icmp --icmp-type` (xt_icmp's ipt_icmp): a type and a code range; type 0xff is `any`,
 * which matches every ICMP packet (the kernel's icmp_type_code_match()).
 */
export interface IcmpMatch {
  readonly name: 'icmp';
  readonly type: number;
  readonly codeMin: number;
  readonly codeMax: number;
  readonly invert: boolean;
}
/** `-m state --state` (xt_state): conntrack states as a bit set, printed in CT_STATES order. */
export interface StateMatch {
  readonly name: 'state';
  readonly states: readonly CtState[];
  readonly invert: boolean;
}
/** `-m iprange` (xt_iprange rev 1): inclusive address ranges, compared as 32-bit numbers. */
export interface IpRange {
  readonly min: string;
  readonly max: string;
  readonly invert: boolean;
}
export interface IprangeMatch {
  readonly name: 'iprange';
  readonly src?: IpRange;
  readonly dst?: IpRange;
}

/**
 * `-m limit` (libxt_limit's xt_rateinfo): `avg` the time between packets in 1/10000 s, the
 * burst. iptables-nft stores it as a native nf_tables limit (match-limit.ts).
 */
export interface LimitMatch {
  readonly name: 'limit';
  readonly avg: number;
  readonly burst: number;
}

export type Match =
  | CommentMatch
  | LimitMatch
  | IcmpMatch
  | StateMatch
  | IprangeMatch
  | PortsMatch
  | MultiportMatch
  | StatisticMatch
  | RecentMatch
  | MarkMatch
  | ConntrackMatch
  | AddrtypeMatch
  | NfacctMatch
  | SetMatch
  | PhysdevMatch
  | IpvsMatch;

export type MatchName = Match['name'];

/** REJECT --reject-with types, indexed like the kernel's enum ipt_reject_with. */
export const REJECT_TYPES = [
  'icmp-net-unreachable',
  'icmp-host-unreachable',
  'icmp-proto-unreachable',
  'icmp-port-unreachable',
  'echo-reply',
  'icmp-net-prohibited',
  'icmp-host-prohibited',
  'tcp-reset',
  'icmp-admin-prohibited',
] as const;
export type RejectWith = (typeof REJECT_TYPES)[number];

/** The nf_nat_range of DNAT/SNAT/MASQUERADE. */
export interface NatRange {
  /** Present when addresses are mapped (NF_NAT_RANGE_MAP_IPS). */
  readonly minAddr?: string;
  readonly maxAddr?: string;
  /** Present when ports are given (NF_NAT_RANGE_PROTO_SPECIFIED). */
  readonly minPort?: number;
  readonly maxPort?: number;
  readonly random: boolean;
  readonly randomFully: boolean;
  readonly persistent: boolean;
}

export type Target =
  /** A rule without -j/-g: it only counts (kube-proxy's last KUBE-FW rule, "other traffic drops"). */
  | { readonly kind: 'none' }
  | { readonly kind: 'jump'; readonly chain: string; readonly goto: boolean }
  | { readonly kind: 'ACCEPT' | 'DROP' | 'RETURN' }
  | { readonly kind: 'REJECT'; readonly with: RejectWith }
  | { readonly kind: 'DNAT' | 'SNAT' | 'MASQUERADE'; readonly range: NatRange }
  /** xt_MARK revision 2: new = (old & ~mask) ^ value. */
  | { readonly kind: 'MARK'; readonly value: number; readonly mask: number }
  | {
      readonly kind: 'CONNMARK';
      readonly mode: 'set' | 'save' | 'restore';
      readonly ctmark: number;
      readonly ctmask: number;
      readonly nfmask: number;
    }
  | {
      readonly kind: 'LOG';
      readonly prefix: string;
      readonly level: number;
      readonly flags: number;
    }
  /**
   * xt_TRACE: marks the packet for tracing (skb->nf_trace). iptables-nft turns it into
   * `meta nftrace set 1`, valid in every table; the events go to `xtables-monitor --trace`.
   */
  | { readonly kind: 'TRACE' }
  /**
   * xt_REDIRECT: DNAT to the node itself (nf_nat_redirect_ipv4): 127.0.0.1 for a packet this
   * node sends (nat OUTPUT), else the first address of the device the packet came in on; the
   * range holds only ports (`--to-ports`) and the random flag.
   */
  | { readonly kind: 'REDIRECT'; readonly range: NatRange }
  /**
   * raw table: the packet gets no conntrack (skb->_nfct = untracked): conntrack skips it, its
   * ctstate is UNTRACKED, and nat never sees it. `-j NOTRACK` (xt_CT revision 0's alias) and
   * `-j CT --notrack`; `-j CT` alone attaches nothing the lab models. The rule continues.
   */
  | { readonly kind: 'NOTRACK' }
  | { readonly kind: 'CT'; readonly notrack: boolean };

export type TargetKind = Target['kind'];

/**
 * A rule. The parsers build every rule with all of these fields, absent ones undefined
 * (new-rule.ts newRule()): one object layout for every rule, so the walk's reads of them stay monomorphic
 * and the commit's nftHandle goes into a field the object already has (JSON omits undefined,
 * so a rule's JSON is the same).
 */
export interface Rule {
  readonly src?: AddrSpec | undefined;
  readonly dst?: AddrSpec | undefined;
  readonly inIface?: IfaceSpec | undefined;
  readonly outIface?: IfaceSpec | undefined;
  /** IP protocol number; absent = any (`-p all`/`-p 0`). */
  readonly protocol?: { readonly num: number; readonly invert: boolean } | undefined;
  readonly fragment?: { readonly invert: boolean } | undefined;
  /** In the order given on the command line (iptables keeps it). */
  readonly matches: readonly Match[];
  readonly target: Target;
  /** Mutable: the packet walk counts here (see bumpRuleCounters). */
  readonly counters: Counters;
  /** Set when a commit puts the rule in nf_tables (see NftTableIds); not part of its identity. */
  nftHandle?: number | undefined;
}

export interface Chain {
  readonly name: string;
  readonly builtin: boolean;
  /** Built-in chains only. */
  policy?: 'ACCEPT' | 'DROP';
  /** Policy counters of a built-in chain (user chains keep 0:0). */
  counters: Counters;
  /**
   * A built-in chain counts the packets its policy decides only once its policy was set (`-P`,
   * or a restore's `:CHAIN POLICY [p:b]` line): only then does iptables-nft give the base chain
   * counters (NFTA_CHAIN_COUNTERS). A base chain it made for a rule keeps 0:0 (seen on the
   * kernel: kube-proxy's nodes, whose FORWARD nobody set a policy on, list 0 packets).
   */
  countsPolicy?: boolean;
  rules: Rule[];
}

export interface Table {
  readonly name: TableName;
  /** Built-in chains first in hook order, then user chains in creation order. */
  chains: Chain[];
  /** The table as nf_tables holds it (see NftTableIds); carried from commit to commit. */
  readonly nft?: NftTableIds;
}

/**
 * What `nft list` shows of an iptables-nft table beyond iptables' own view: the table's
 * handle; the handles of the chains that exist in nf_tables (iptables shows every base chain,
 * but iptables-nft creates one only when a rule or a policy needs it), which also give their
 * creation order, the order nft lists them in; the table's handle counter (chains and rules
 * share it: nf_tables_api.c table->hgenerator). Rule handles are kept on the rules
 * (`nftHandle`). Plain data, updated in place at each commit.
 */
export interface NftTableIds {
  handle: number;
  readonly chains: Record<string, number>;
  lastHandle: number;
}

/**
 * A node's netfilter state. A table is absent until first used: with the nf_tables backend
 * iptables creates a table only when a command writes to it (listing does not).
 *
 * Change it only through iptablesRestore/iptablesCommand (the packet walk bumps counters):
 * each commit puts a new Table object in place, and lookups go through indexes kept beside
 * the data for each Table object (table-index.ts), which an edit by hand would leave stale.
 */
export interface NetfilterState {
  tables: { [K in TableName]?: Table };
  /** The network namespace's table handle counter, shared with its other nf_tables tables. */
  readonly netns?: NftNetns;
}

export interface NftNetns {
  lastTableHandle: number;
}
