/**
 * A table whose hook has no rule to evaluate: its built-in chain's policy decides (counting
 * the packet), or, with no table or chain for the hook, the packet is accepted untouched.
 */
import { BUILTIN_CHAINS } from '../tables';
import type { NetfilterState, TableName } from '../types';
import { builtinChain } from './chain-index';
import type { Hook, Packet, TraceStep, TraverseOptions, TraverseResult } from './types';

/**
 * The walk of a table whose hook has no rules to evaluate: no table or base chain (accept), or
 * an empty base chain (its policy decides and counts the packet). undefined when there are
 * rules. Most hooks of a node are like this, and the datapath asks first so that it builds the
 * match context only for the walks that need one.
 */
export function traverseEmpty(
  state: NetfilterState,
  table: TableName,
  hook: Hook,
  packet: Packet,
  opts: TraverseOptions = {},
): TraverseResult | undefined {
  const e = emptyWalk(state, table, hook, packet.length, packet.mark, opts);
  return e === undefined
    ? undefined
    : { verdict: e.verdict, packet, logs: [], steps: [...e.steps] };
}

/** What traverseEmpty decides, from the two fields it reads: skb->len and skb->mark. */
export interface EmptyWalk {
  readonly verdict: 'ACCEPT' | 'DROP';
  readonly steps: readonly TraceStep[];
}

/**
 * Whether `hook` has a base chain in `table` (isBuiltinChain for the five hooks), as a fixed
 * record: every packet asks at every hook, for every table.
 */
const HAS_BASE: { readonly [T in TableName]: { readonly [H in Hook]: boolean } } = {
  raw: baseHooks('raw'),
  mangle: baseHooks('mangle'),
  nat: baseHooks('nat'),
  filter: baseHooks('filter'),
  security: baseHooks('security'),
};

function baseHooks(table: TableName): { readonly [H in Hook]: boolean } {
  const chains = BUILTIN_CHAINS[table];
  return {
    PREROUTING: chains.includes('PREROUTING'),
    INPUT: chains.includes('INPUT'),
    FORWARD: chains.includes('FORWARD'),
    OUTPUT: chains.includes('OUTPUT'),
    POSTROUTING: chains.includes('POSTROUTING'),
  };
}

const NO_STEPS: readonly TraceStep[] = Object.freeze([]);
const ACCEPTED: EmptyWalk = Object.freeze({ verdict: 'ACCEPT', steps: NO_STEPS });
const DROPPED: EmptyWalk = Object.freeze({ verdict: 'DROP', steps: NO_STEPS });

/**
 * traverseEmpty without a Packet (the datapath asks before building one): undefined when the
 * hook's chain has rules, else the verdict, the policy counted and its step when recorded.
 */
export function emptyWalk(
  state: NetfilterState,
  table: TableName,
  hook: Hook,
  length: number,
  mark: number,
  opts: TraverseOptions = {},
): EmptyWalk | undefined {
  const t = state.tables[table];
  const base = t !== undefined && HAS_BASE[table][hook] ? builtinChain(t, hook) : undefined;
  if (t === undefined || base === undefined) return ACCEPTED;
  if (base.rules.length > 0) return undefined;
  const verdict = base.policy ?? 'ACCEPT';
  base.counters.packets += 1;
  base.counters.bytes += length;
  if ((opts.steps ?? 'all') === 'none') return verdict === 'ACCEPT' ? ACCEPTED : DROPPED;
  // The same step traverseTable's policy() records.
  const step: TraceStep = {
    table,
    chain: base.name,
    ruleNum: 1,
    type: 'policy',
    trace: `${table}:${base.name}:policy:1`,
    text: '',
    matched: true,
    outcome: { kind: 'policy', verdict },
    mark,
    depth: 0,
  };
  return { verdict, steps: [step] };
}
