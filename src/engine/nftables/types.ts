/**
 * nf_tables state as the kernel holds it for the lab's nodes: tables of one family, their
 * chains (base chains with type/hook/priority/policy), rules, and named sets and maps with their
 * elements (net/netfilter/nf_tables_api.c). Only what kube-proxy's nftables mode writes is
 * modelled: the `ip` family, verdict maps, and the expressions listed in `Stmt`.
 */

export type NftHook = 'prerouting' | 'input' | 'forward' | 'output' | 'postrouting';
export type NftChainType = 'filter' | 'nat';

/** A selector of the packet: `ip saddr`, `ip daddr`, `meta l4proto`, `th dport`, `iifname`, `oifname`. */
export type NftField =
  'ip saddr' | 'ip daddr' | 'meta l4proto' | 'th dport' | 'iifname' | 'oifname';

/** A verdict as nft spells it. */
export type NftVerdict =
  | { readonly kind: 'accept' | 'drop' | 'return' | 'continue' }
  | { readonly kind: 'jump' | 'goto'; readonly chain: string };

/** One statement (expression) of a rule, in rule order. */
export type Stmt =
  /** `FIELD [!=] VALUE`: an address, a CIDR, a protocol/port/name, or an anonymous set `{ a, b }`. */
  | {
      readonly k: 'cmp';
      readonly field: NftField;
      readonly neg: boolean;
      readonly values: readonly string[];
      /** Written with braces (an anonymous set); one element is printed without them. */
      readonly braces: boolean;
    }
  /** `FIELD [!=] @set`. */
  | { readonly k: 'lookup'; readonly field: NftField; readonly neg: boolean; readonly set: string }
  /** `ct state new[,established…]`. */
  | { readonly k: 'ct-state'; readonly states: readonly string[] }
  /** `fib saddr|daddr type local`. */
  | { readonly k: 'fib'; readonly dir: 'saddr' | 'daddr'; readonly type: string }
  /** `F1 . F2 . F3 vmap @map`. */
  | { readonly k: 'vmap'; readonly key: readonly NftField[]; readonly map: string }
  /** `numgen random mod N vmap { 0 : goto A, 1 : goto B }`. */
  | {
      readonly k: 'numgen-vmap';
      readonly mod: number;
      readonly entries: readonly { readonly n: number; readonly verdict: NftVerdict }[];
    }
  /** `meta mark set meta mark | V` (kube-proxy writes `mark set mark or V`), `^` for xor. */
  | { readonly k: 'mark-set'; readonly op: 'or' | 'xor'; readonly value: number }
  /** `meta mark & MASK == V` / `!= V`. */
  | {
      readonly k: 'mark-cmp';
      readonly mask: number;
      readonly neg: boolean;
      readonly value: number;
    }
  /** `update @set { ip saddr }`. */
  | { readonly k: 'update'; readonly set: string; readonly field: NftField }
  /** `tcp dport 80` (masqueradeAll form). */
  | { readonly k: 'l4-dport'; readonly proto: string; readonly port: number }
  /** `dnat to IP:PORT` (always after `meta l4proto P`). */
  | { readonly k: 'dnat'; readonly addr: string; readonly port?: number }
  | { readonly k: 'masquerade'; readonly fullyRandom: boolean }
  | { readonly k: 'reject' }
  | { readonly k: 'counter'; packets: number; bytes: number }
  | { readonly k: 'verdict'; readonly verdict: NftVerdict };

export interface NftRule {
  readonly handle: number;
  readonly stmts: readonly Stmt[];
  readonly comment?: string;
}

export interface NftBaseChain {
  readonly type: NftChainType;
  readonly hook: NftHook;
  readonly priority: number;
  readonly policy: 'accept' | 'drop';
}

export interface NftChain {
  readonly name: string;
  readonly handle: number;
  readonly base?: NftBaseChain;
  readonly comment?: string;
  rules: NftRule[];
}

/** Key/value data types as nft names them. */
export type NftDataType = 'ipv4_addr' | 'inet_proto' | 'inet_service';

export interface NftElement {
  /** One string per key component, as written (`10.96.0.10`, `udp`, `53`). */
  readonly key: readonly string[];
  /** Maps: the verdict. */
  readonly verdict?: NftVerdict;
  readonly comment?: string;
  /** Absolute virtual time (ms) at which a timed-out element disappears. */
  readonly expiresAt?: number;
  /** The element's own timeout when it differs from the set's (ms). */
  readonly timeoutMs?: number;
}

export interface NftSet {
  readonly name: string;
  readonly handle: number;
  readonly kind: 'set' | 'map';
  readonly keyType: readonly NftDataType[];
  readonly flags: readonly string[];
  readonly timeoutMs?: number;
  readonly comment?: string;
  /** By key text (`a . b . c`). */
  elements: Map<string, NftElement>;
}

export interface NftTable {
  readonly family: 'ip';
  readonly name: string;
  readonly handle: number;
  comment?: string;
  /** Creation order, which is the kernel's list order (list_add_tail_rcu). */
  chains: Map<string, NftChain>;
  sets: Map<string, NftSet>;
  /** table->hgenerator: chains, rules, sets (also anonymous ones) share one counter. */
  lastHandle: number;
}

export interface NftState {
  /** By `family name`, in creation order. */
  tables: Map<string, NftTable>;
  /** The net namespace's table handle counter. */
  lastTableHandle: number;
  /** The counter shared with the namespace's iptables-nft tables (NetfilterState.netns). */
  readonly netns?: { lastTableHandle: number };
}

export function createNftState(): NftState {
  return { tables: new Map(), lastTableHandle: 0 };
}

export function tableKey(family: string, name: string): string {
  return `${family} ${name}`;
}
