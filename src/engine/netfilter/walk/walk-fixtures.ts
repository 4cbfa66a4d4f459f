/**
 * Test-only builders for the walk's tests: rules from restore text, synthetic packets and
 * contexts with seeded randomness.
 */
import { rngFromSeed } from '../../model/runtime';
import { iptablesRestore } from '../restore';
import { createNetfilter, getChain } from '../state';
import type { NetfilterState, Rule, TableName } from '../types';
import { createWalkStore } from './store';
import type { Hook, MatchContext, Packet, WalkContext } from './types';

/** A fresh node state loaded from restore input (throws with iptables' message on failure). */
export function loadRules(input: string): NetfilterState {
  const state = createNetfilter();
  const r = iptablesRestore(state, input, { noflush: true });
  if (r.exitCode !== 0) throw new Error(r.stderr);
  return state;
}

/** The single rule of `-A T <args>` in a fresh table (T: a user chain, so no hook limits). */
export function ruleOf(args: string, table: TableName = 'filter', chain = 'T'): Rule {
  const state = loadRules(`*${table}\n:${chain} - [0:0]\n-A ${chain} ${args}\nCOMMIT\n`);
  const rule = getChain(state, table, chain)?.rules[0];
  if (rule === undefined) throw new Error(`no rule from ${args}`);
  return rule;
}

/** Packet fields to override; `undefined` removes a default (e.g. `inIface: undefined`). */
export type PacketPatch = { readonly [K in keyof Packet]?: Packet[K] | undefined };

/** A 60-byte TCP SYN 10.0.0.1:40000 → 10.0.0.2:80 arriving on eth0, with `patch` applied. */
export function packet(patch: PacketPatch = {}): Packet {
  const p: Record<string, unknown> = {
    src: '10.0.0.1',
    dst: '10.0.0.2',
    protocol: 'tcp',
    sport: 40000,
    dport: 80,
    tcpFlags: { syn: true },
    length: 60,
    mark: 0,
    inIface: 'eth0',
    ...patch,
  };
  for (const k of Object.keys(p)) if (p[k] === undefined) delete p[k];
  return p as unknown as Packet;
}

/** A NEW connection on a node whose only address is 10.0.0.2, rng seeded with `seed`. */
export function walkContext(patch: Partial<WalkContext> = {}, seed = 1): WalkContext {
  return {
    conntrack: { state: 'NEW' },
    isLocalAddress: (ip) => ip === '10.0.0.2',
    rng: rngFromSeed(seed),
    now: 0,
    store: createWalkStore(),
    ...patch,
  };
}

export function matchContext(
  patch: Partial<WalkContext> = {},
  hook: Hook = 'INPUT',
  table: TableName = 'filter',
): MatchContext {
  return { ...walkContext(patch), hook, table };
}
