/**
 * A table whose hook has no rule to evaluate: its built-in chain's policy decides (counting
 * the packet), or, with no table or chain for the hook, the packet is accepted untouched.
 */
import type { NetfilterState, Table, TableName } from '../types';
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
 * `state.tables[table]` and whether `hook` has a base chain in it (isBuiltinChain), by named
 * reads: every packet asks at every hook for every table, and a read keyed by a variable name
 * costs a generic lookup each time.
 */
export function tableOf(state: NetfilterState, table: TableName): Table | undefined {
  const tables = state.tables;
  switch (table) {
    case 'raw':
      return tables.raw;
    case 'mangle':
      return tables.mangle;
    case 'nat':
      return tables.nat;
    case 'filter':
      return tables.filter;
    case 'security':
      return tables.security;
  }
}

/** BUILTIN_CHAINS[table] includes `hook` (tables.ts). */
function hasBase(table: TableName, hook: Hook): boolean {
  switch (table) {
    case 'raw':
      return hook === 'PREROUTING' || hook === 'OUTPUT';
    case 'mangle':
      return (
        hook === 'PREROUTING' ||
        hook === 'INPUT' ||
        hook === 'FORWARD' ||
        hook === 'OUTPUT' ||
        hook === 'POSTROUTING'
      );
    case 'filter':
    case 'security':
      return hook === 'INPUT' || hook === 'FORWARD' || hook === 'OUTPUT';
    case 'nat':
      return (
        hook === 'PREROUTING' || hook === 'INPUT' || hook === 'OUTPUT' || hook === 'POSTROUTING'
      );
  }
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
  const t = tableOf(state, table);
  const base = t !== undefined && hasBase(table, hook) ? builtinChain(t, hook) : undefined;
  if (t === undefined || base === undefined) return ACCEPTED;
  if (base.rules.length > 0) return undefined;
  const verdict = base.policy ?? 'ACCEPT';
  // Only a chain whose policy was set has counters (Chain.countsPolicy).
  if (base.countsPolicy === true) {
    base.counters.packets += 1;
    base.counters.bytes += length;
  }
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

/** For the tests: tableOf and hasBase. */
export const emptyWalkInternals = { tableOf, hasBase };
