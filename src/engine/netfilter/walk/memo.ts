/**
 * A memo of table walks whose trace is not kept: the outcome of a walk, the rules whose
 * counters it bumped (in order) and whether the built-in chain's policy counted it, keyed on
 * exactly the packet and conntrack fields the evaluated conditions read. Most packets of a
 * bulk run are established flows walking filter FORWARD through the same few rules (ctstate
 * NEW no, KUBE-FORWARD: INVALID no, mark 0x4000 no, RELATED,ESTABLISHED yes → ACCEPT), which
 * read nothing but ctstate and skb->mark: one entry answers all of them, across flows.
 *
 * Exactness: ipt_do_table() is a pure function of the ruleset and the fields its conditions
 * read, except for the conditions and targets that read or change other state. So a walk is
 * remembered only when
 * - every condition it evaluated is stateless (ip header, tcp/udp/sctp, multiport, mark,
 *   conntrack --ctstate, physdev, comment): statistic (random draws, nth counters), recent,
 *   nfacct (counts), set (ipset contents), addrtype (the node's addresses) and ipvs (IPVS
 *   connections) make it unremembered — but only when evaluated: a rule that failed on an
 *   earlier condition never ran its later matches, in the kernel as here;
 * - every matched target only counts or moves through the ruleset (jumps, gotos, RETURN,
 *   ACCEPT, DROP, REJECT, DNAT/SNAT/MASQUERADE requests, no target): MARK, CONNMARK and LOG
 *   change the packet, its connection or the log;
 * - it did not give up (jump stack full, rule loop).
 * The key is the union of the fields the evaluated conditions read (a rule that failed adds
 * the fields of the conditions up to the failing one); skipping rules through the destination
 * index (rule-index.ts) adds the destination. A replay bumps the same counters by the packet's
 * own length, as the walk would have.
 *
 * Invalidation: the memo is kept per Table object. A committed table is never changed in place
 * (every batch — iptables, iptables-restore, -P, -Z — works on a copy-on-write draft and
 * commits a new Table, netfilter/draft.ts), so a new Table object is the table's next
 * generation and starts with an empty memo; only counters change in place, and the memo reads
 * them live.
 */
import type { Chain, NetfilterState, Rule, Table, TableName, Target } from '../types';
import { isFragment } from './match-ip';
import { tableOf } from './traverse-empty';
import type { ConntrackInfo, Hook, NatRequest, Packet, TraceStep, Verdict } from './types';
import type { RejectWith } from '../types';

/** The fields a walk's conditions read (bits of a key mask). */
export const DEP = {
  SRC: 1,
  DST: 2,
  IN: 4,
  OUT: 8,
  PROTO: 16,
  /** Whether the packet is a non-first fragment (isFragment). */
  FRAG: 32,
  SPORT: 64,
  DPORT: 128,
  MARK: 256,
  /** The conntrack view conntrack_mt() reads: ctstate and the SNAT/DNAT status bits. */
  CT: 512,
  PHYS: 1024,
  /** Something else was read or changed: the walk is not remembered. */
  IMPURE: 2048,
} as const;

/** What a remembered walk decided (the datapath reads no more of a walk's result). */
export interface MemoOutcome {
  readonly verdict: Verdict;
  readonly nat?: NatRequest;
  readonly reject?: { readonly with: RejectWith };
  readonly steps: readonly TraceStep[];
}

class Entry {
  constructor(
    readonly deps: number,
    readonly src: string,
    readonly dst: string,
    readonly inIface: string | undefined,
    readonly outIface: string | undefined,
    readonly protocol: string,
    readonly frag: boolean,
    readonly sport: number | undefined,
    readonly dport: number | undefined,
    readonly mark: number,
    readonly ctState: string,
    readonly snat: boolean,
    readonly dnat: boolean,
    readonly physIn: string | undefined,
    readonly physOut: string | undefined,
    /** The rules whose counters the walk bumped, in order (a rule may come more than once). */
    readonly counted: readonly Rule[],
    /** The built-in chain whose policy decided (and counted), if it did. */
    readonly policy: Chain | undefined,
    readonly outcome: MemoOutcome,
  ) {}
}

/** Entries kept per table and hook; the oldest goes first. */
export const MEMO_ENTRIES = 16;

interface HookMemo {
  readonly entries: Entry[];
  /** Where the next entry goes once the list is full. */
  next: number;
}

const memos = new WeakMap<Table, Map<Hook, HookMemo>>();

/** conntrack_mt()'s SNAT/DNAT bits: only a tracked connection has them. */
function tracked(ct: ConntrackInfo): boolean {
  return ct.state !== 'INVALID' && ct.state !== 'UNTRACKED';
}

function fits(e: Entry, p: Packet, ct: ConntrackInfo): boolean {
  const d = e.deps;
  if (d === 0) return true;
  if ((d & DEP.CT) !== 0) {
    if (ct.state !== e.ctState) return false;
    const t = tracked(ct);
    if ((t && ct.snat === true) !== e.snat || (t && ct.dnat === true) !== e.dnat) return false;
  }
  if ((d & DEP.MARK) !== 0 && p.mark !== e.mark) return false;
  if ((d & DEP.SRC) !== 0 && p.src !== e.src) return false;
  if ((d & DEP.DST) !== 0 && p.dst !== e.dst) return false;
  if ((d & DEP.IN) !== 0 && p.inIface !== e.inIface) return false;
  if ((d & DEP.OUT) !== 0 && p.outIface !== e.outIface) return false;
  if ((d & DEP.PROTO) !== 0 && p.protocol !== e.protocol) return false;
  if ((d & DEP.FRAG) !== 0 && isFragment(p) !== e.frag) return false;
  if ((d & DEP.SPORT) !== 0 && p.sport !== e.sport) return false;
  if ((d & DEP.DPORT) !== 0 && p.dport !== e.dport) return false;
  if ((d & DEP.PHYS) !== 0 && (p.physIn !== e.physIn || p.physOut !== e.physOut)) return false;
  return true;
}

/**
 * The remembered walk of `packet` through `table` at `hook`, its counters bumped as the walk
 * would have bumped them; undefined when none is remembered.
 */
export function replayWalk(
  state: NetfilterState,
  table: TableName,
  hook: Hook,
  packet: Packet,
  ct: ConntrackInfo,
): MemoOutcome | undefined {
  const t = tableOf(state, table);
  if (t === undefined) return undefined;
  const entries = memos.get(t)?.get(hook)?.entries;
  if (entries === undefined) return undefined;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (!fits(e, packet, ct)) continue;
    const len = packet.length;
    const counted = e.counted;
    for (let j = 0; j < counted.length; j++) {
      const c = counted[j]!.counters;
      c.packets += 1;
      c.bytes += len;
    }
    if (e.policy !== undefined) {
      e.policy.counters.packets += 1;
      e.policy.counters.bytes += len;
    }
    return e.outcome;
  }
  return undefined;
}

/** Remembers a finished walk (see the module comment for which ones may be). */
export function rememberWalk(
  table: Table,
  hook: Hook,
  packet: Packet,
  ct: ConntrackInfo,
  deps: number,
  counted: readonly Rule[],
  policy: Chain | undefined,
  outcome: MemoOutcome,
): void {
  if ((deps & DEP.IMPURE) !== 0) return;
  let byHook = memos.get(table);
  if (byHook === undefined) memos.set(table, (byHook = new Map()));
  let m = byHook.get(hook);
  if (m === undefined) byHook.set(hook, (m = { entries: [], next: 0 }));
  const t = tracked(ct);
  const e = new Entry(
    deps,
    packet.src,
    packet.dst,
    packet.inIface,
    packet.outIface,
    packet.protocol,
    isFragment(packet),
    packet.sport,
    packet.dport,
    packet.mark,
    ct.state,
    t && ct.snat === true,
    t && ct.dnat === true,
    packet.physIn,
    packet.physOut,
    counted.slice(),
    policy,
    outcome,
  );
  if (m.entries.length < MEMO_ENTRIES) m.entries.push(e);
  else {
    m.entries[m.next] = e;
    m.next = (m.next + 1) % MEMO_ENTRIES;
  }
}

/** The fields condition `part` of `rule` reads: 0 is the ip header part, k + 1 match k. */
function partDeps(rule: Rule, part: number): number {
  if (part === 0) {
    let d = 0;
    if (rule.src !== undefined) d |= DEP.SRC;
    if (rule.dst !== undefined) d |= DEP.DST;
    if (rule.inIface !== undefined) d |= DEP.IN;
    if (rule.outIface !== undefined) d |= DEP.OUT;
    if (rule.protocol !== undefined) d |= DEP.PROTO;
    if (rule.fragment !== undefined) d |= DEP.FRAG;
    return d;
  }
  const m = rule.matches[part - 1];
  if (m === undefined) return 0;
  switch (m.name) {
    case 'comment':
      return 0;
    case 'tcp':
    case 'udp':
    case 'sctp':
    case 'multiport':
      // The TCP flags are no key of a remembered walk: a rule that reads them is not replayed.
      if ('flags' in m && m.flags !== undefined) return DEP.IMPURE;
      return DEP.FRAG | DEP.SPORT | DEP.DPORT;
    case 'mark':
      return DEP.MARK;
    case 'conntrack':
    case 'state':
      return DEP.CT;
    case 'iprange':
      return DEP.SRC | DEP.DST;
    case 'physdev':
      return DEP.PHYS;
    default:
      // statistic, recent, nfacct, set, addrtype, ipvs; icmp (its type is no key of the memo).
      return DEP.IMPURE;
  }
}

/**
 * What evaluating `rule` read: its conditions up to the one that failed (`failed`, a part as
 * partDeps numbers them), or all of them and its target when it matched (failed < 0).
 */
export function ruleDeps(rule: Rule, failed: number): number {
  const last = failed < 0 ? rule.matches.length : failed;
  let d = 0;
  for (let part = 0; part <= last; part++) d |= partDeps(rule, part);
  if (failed < 0 && !MOVES_ONLY.has(rule.target.kind)) d |= DEP.IMPURE;
  return d;
}

/**
 * Targets that only count, move through the ruleset or hand the datapath a verdict or a NAT
 * request. An allow-list: MARK, CONNMARK and LOG change the packet, its connection or the log,
 * and a target added later is not remembered until it is listed here.
 */
const MOVES_ONLY: ReadonlySet<Target['kind']> = new Set<Target['kind']>([
  'none',
  'jump',
  'ACCEPT',
  'DROP',
  'RETURN',
  'REJECT',
  'DNAT',
  'SNAT',
  'MASQUERADE',
]);
