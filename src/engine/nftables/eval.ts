/**
 * nft_do_chain() for one base chain and one packet (net/netfilter/nf_tables_core.c): rules in
 * order, each rule's expressions in order until one breaks; `jump` pushes a return point,
 * `goto` does not, the end of a regular chain returns, the end of the base chain applies its
 * policy. Lookups (`@set`, `vmap @map`), `numgen random mod N` (nft_ng_random_eval:
 * reciprocal_scale(get_random_u32(), N)), `update @set` (nft_dynset, refreshing the timeout),
 * `meta mark`, `fib … type local`, `ct state`, and the terminal statements `dnat to`,
 * `masquerade` (both end the chain with accept once NAT is set up), `reject` (icmp port
 * unreachable for the ip family) and `drop`.
 */
import { nftMismatch, type NftMismatch } from './mismatch';
import type { Rng } from '../model/runtime';
import { cidrContains, cidrParse } from '../model/ip';
import { ruleText, stmtText, verdictText } from './rule-text';
import type { NftChain, NftField, NftSet, NftTable, NftVerdict, Stmt } from './types';

export type NftCtState = 'new' | 'established' | 'related' | 'invalid' | 'untracked';

export interface NftPacket {
  readonly src: string;
  readonly dst: string;
  readonly proto: 'tcp' | 'udp' | 'icmp' | 'sctp';
  readonly dport?: number;
  readonly mark: number;
  readonly iif?: string;
  readonly oif?: string;
  readonly ctstate: NftCtState;
}

export interface NftEvalContext {
  isLocalAddress(ip: string): boolean;
  readonly rng: Rng;
  readonly nowMs: number;
}

/** A set or map lookup a rule made. */
export interface NftLookup {
  readonly set: string;
  readonly key: string;
  readonly found: boolean;
  /** The verdict a map gave. */
  readonly value?: string;
}

export interface NftStep {
  readonly chain: string;
  readonly handle: number;
  /** The rule as `nft list` prints it. */
  readonly rule: string;
  readonly matched: boolean;
  /** `continue`, `jump X`, `goto X`, `return`, `accept`, `drop`, `reject`, `dnat to …`, `masquerade …`. */
  readonly outcome: string;
  readonly lookup?: NftLookup;
  /** A rule that did not match: the statement that ended it (mismatch.ts). */
  readonly mismatch?: NftMismatch;
}

export type NftNat =
  | { readonly kind: 'dnat'; readonly addr: string; readonly port?: number }
  | { readonly kind: 'masquerade'; readonly fullyRandom: boolean };

export interface NftResult {
  readonly verdict: 'accept' | 'drop' | 'reject';
  readonly mark: number;
  readonly nat?: NftNat;
  readonly steps: readonly NftStep[];
}

/** NFT_JUMP_STACK_SIZE. */
const JUMP_STACK_SIZE = 16;

function fieldValue(p: NftPacket, f: NftField): string | undefined {
  switch (f) {
    case 'ip saddr':
      return p.src;
    case 'ip daddr':
      return p.dst;
    case 'meta l4proto':
      return p.proto;
    case 'th dport':
      return p.dport === undefined ? undefined : String(p.dport);
    case 'iifname':
      return p.iif;
    case 'oifname':
      return p.oif;
  }
}

function valueMatches(field: NftField, actual: string, v: string): boolean {
  if (field === 'ip saddr' || field === 'ip daddr') {
    if (v.includes('/')) {
      const cidr = cidrParse(v, { allowHostBits: true });
      return cidr !== undefined && cidrContains(cidr, actual);
    }
    return actual === v;
  }
  if (v.endsWith('*')) return actual.startsWith(v.slice(0, -1)); // iifname "veth*"
  return actual === v;
}

function liveElement(set: NftSet, key: string, nowMs: number) {
  const e = set.elements.get(key);
  if (e === undefined || (e.expiresAt !== undefined && e.expiresAt <= nowMs)) return undefined;
  return e;
}

type RuleOutcome =
  | { kind: 'break' }
  | { kind: 'next' }
  | { kind: 'verdict'; verdict: NftVerdict | { kind: 'reject' } }
  | { kind: 'nat'; nat: NftNat };

export function evalBaseChain(
  table: NftTable,
  base: NftChain,
  packet: NftPacket,
  ctx: NftEvalContext,
): NftResult {
  const steps: NftStep[] = [];
  let mark = packet.mark;
  const stack: { chain: NftChain; index: number }[] = [];
  let chain = base;
  let index = 0;
  for (let guard = 0; guard < 100_000; guard++) {
    const rule = chain.rules[index];
    if (rule === undefined) {
      const back = stack.pop();
      if (back === undefined) return { verdict: base.base?.policy ?? 'accept', mark, steps };
      chain = back.chain;
      index = back.index;
      continue;
    }
    index++;
    let lookup: NftLookup | undefined;
    let mismatch: NftMismatch | undefined;
    let outcome: RuleOutcome = { kind: 'next' };
    const p: NftPacket = { ...packet, mark };
    for (const s of rule.stmts) {
      const r = evalStmt(s, p, table, ctx, mark);
      if (r.lookup !== undefined) lookup = r.lookup;
      if (r.mark !== undefined) mark = r.mark;
      if (r.outcome.kind !== 'next') {
        outcome = r.outcome;
        if (outcome.kind === 'break') mismatch = nftMismatch(s, p, mark);
        break;
      }
    }
    const matched = outcome.kind !== 'break';
    let text = 'continue';
    if (outcome.kind === 'verdict') text = verdictText(outcome.verdict as NftVerdict);
    if (outcome.kind === 'nat')
      text = outcome.nat.kind === 'dnat' ? stmtText({ k: 'dnat', ...outcome.nat }) : 'masquerade';
    steps.push({
      chain: chain.name,
      handle: rule.handle,
      rule: ruleText(rule),
      matched,
      outcome: matched ? text : 'continue',
      ...(lookup !== undefined ? { lookup } : {}),
      ...(mismatch !== undefined ? { mismatch } : {}),
    });
    if (outcome.kind === 'nat') return { verdict: 'accept', mark, nat: outcome.nat, steps };
    if (outcome.kind !== 'verdict') continue;
    const v = outcome.verdict;
    switch (v.kind) {
      case 'accept':
        return { verdict: 'accept', mark, steps };
      case 'drop':
        return { verdict: 'drop', mark, steps };
      case 'reject':
        return { verdict: 'reject', mark, steps };
      case 'continue':
        continue;
      case 'return': {
        const back = stack.pop();
        if (back === undefined) return { verdict: base.base?.policy ?? 'accept', mark, steps };
        chain = back.chain;
        index = back.index;
        continue;
      }
      case 'jump':
      case 'goto': {
        const target = table.chains.get(v.chain);
        if (target === undefined) return { verdict: 'drop', mark, steps };
        if (v.kind === 'jump') {
          if (stack.length >= JUMP_STACK_SIZE) return { verdict: 'drop', mark, steps };
          stack.push({ chain, index });
        }
        chain = target;
        index = 0;
        continue;
      }
    }
  }
  return { verdict: 'drop', mark, steps };
}

interface StmtResult {
  readonly outcome: RuleOutcome;
  readonly mark?: number;
  readonly lookup?: NftLookup;
}

const NEXT: StmtResult = { outcome: { kind: 'next' } };
const BREAK: StmtResult = { outcome: { kind: 'break' } };

function evalStmt(
  s: Stmt,
  p: NftPacket,
  table: NftTable,
  ctx: NftEvalContext,
  mark: number,
): StmtResult {
  switch (s.k) {
    case 'cmp': {
      const actual = fieldValue(p, s.field);
      if (actual === undefined) return BREAK;
      const hit = s.values.some((v) => valueMatches(s.field, actual, v));
      return hit !== s.neg ? NEXT : BREAK;
    }
    case 'lookup': {
      const set = table.sets.get(s.set);
      const key = fieldValue(p, s.field) ?? '';
      const found = set !== undefined && liveElement(set, key, ctx.nowMs) !== undefined;
      const lookup = { set: s.set, key, found };
      return { outcome: found !== s.neg ? { kind: 'next' } : { kind: 'break' }, lookup };
    }
    case 'ct-state':
      return s.states.includes(p.ctstate) ? NEXT : BREAK;
    case 'fib': {
      const ip = s.dir === 'saddr' ? p.src : p.dst;
      return s.type === 'local' && ctx.isLocalAddress(ip) ? NEXT : BREAK;
    }
    case 'vmap': {
      const parts = s.key.map((f) => fieldValue(p, f));
      if (parts.some((x) => x === undefined)) return BREAK;
      const key = parts.join(' . ');
      const set = table.sets.get(s.map);
      const e = set === undefined ? undefined : liveElement(set, key, ctx.nowMs);
      if (e?.verdict === undefined)
        return { outcome: { kind: 'break' }, lookup: { set: s.map, key, found: false } };
      return {
        outcome: { kind: 'verdict', verdict: e.verdict },
        lookup: { set: s.map, key, found: true, value: verdictText(e.verdict) },
      };
    }
    case 'numgen-vmap': {
      // reciprocal_scale(get_random_u32(), mod): ((u64)rand * mod) >> 32.
      const n = Math.floor((ctx.rng.nextU32() * s.mod) / 2 ** 32);
      const e = s.entries.find((x) => x.n === n);
      const lookup = {
        set: 'numgen',
        key: String(n),
        found: e !== undefined,
        ...(e ? { value: verdictText(e.verdict) } : {}),
      };
      return e === undefined
        ? { outcome: { kind: 'break' }, lookup }
        : { outcome: { kind: 'verdict', verdict: e.verdict }, lookup };
    }
    case 'mark-set':
      return {
        outcome: { kind: 'next' },
        mark: (s.op === 'or' ? mark | s.value : mark ^ s.value) >>> 0,
      };
    case 'mark-cmp':
      return ((mark & s.mask) >>> 0 === s.value) !== s.neg ? NEXT : BREAK;
    case 'update': {
      const set = table.sets.get(s.set);
      const key = fieldValue(p, s.field);
      if (set === undefined || key === undefined) return NEXT;
      const old = set.elements.get(key);
      set.elements.set(key, {
        ...(old ?? { key: [key] }),
        ...(set.timeoutMs !== undefined ? { expiresAt: ctx.nowMs + set.timeoutMs } : {}),
      });
      return { outcome: { kind: 'next' }, lookup: { set: s.set, key, found: old !== undefined } };
    }
    case 'l4-dport':
      return p.proto === s.proto && p.dport === s.port ? NEXT : BREAK;
    case 'dnat':
      return {
        outcome: {
          kind: 'nat',
          nat: { kind: 'dnat', addr: s.addr, ...(s.port !== undefined ? { port: s.port } : {}) },
        },
      };
    case 'masquerade':
      return { outcome: { kind: 'nat', nat: { kind: 'masquerade', fullyRandom: s.fullyRandom } } };
    case 'reject':
      return { outcome: { kind: 'verdict', verdict: { kind: 'reject' } } };
    case 'counter':
      s.packets++;
      return NEXT;
    case 'verdict':
      return { outcome: { kind: 'verdict', verdict: s.verdict } };
  }
}

/** The base chains of `table` registered at `hook`, in priority order (ties: creation order). */
export function baseChainsAt(table: NftTable, hook: string, type?: 'filter' | 'nat'): NftChain[] {
  return [...table.chains.values()]
    .filter(
      (c) =>
        c.base !== undefined &&
        c.base.hook === hook &&
        (type === undefined || c.base.type === type),
    )
    .sort((a, b) => (a.base?.priority ?? 0) - (b.base?.priority ?? 0));
}
