/**
 * A minimal reference datapath for tests: runs a packet through the conntrack and nat hooks of
 * one path in the order the kernel does (nf_conntrack_in at -200, nat at -100/+100, confirm
 * last), with nat "rules" given as functions. The real per-hook walk lives with the datapath.
 */
import type { Rng } from '../model/runtime';
import { ctConfirm, ctDrop, ctLookupOrCreate, type CtResult } from './core';
import type { CtTable } from './model';
import { natNeeded, natPacket, natSetup, type NatHook, type NatRange } from './nat';
import type { CtPacket } from './tuple';

/** A nat chain: the range of the first matching DNAT/SNAT/MASQUERADE rule, or undefined. */
export type NatChain = (p: CtPacket) => NatRange | undefined;

export interface NatRules {
  readonly PREROUTING?: NatChain;
  readonly OUTPUT?: NatChain;
  readonly POSTROUTING?: NatChain;
  readonly INPUT?: NatChain;
}

/** Which hooks a packet crosses: locally sent, locally received, or forwarded. */
export type PathKind = 'local-out' | 'local-in' | 'forward';

const PATHS: Readonly<Record<PathKind, readonly [NatHook, NatHook]>> = {
  'local-out': ['OUTPUT', 'POSTROUTING'],
  'local-in': ['PREROUTING', 'INPUT'],
  forward: ['PREROUTING', 'POSTROUTING'],
};

export interface WalkResult {
  readonly ct: CtResult;
  /** The packet as it leaves the last hook. */
  readonly packet: CtPacket;
  /** Confirmation failed (clash) or a hook dropped the packet. */
  readonly dropped: boolean;
}

/** Runs `packet` along `path` at `nowMs`; `drop` drops it after the first hook. */
export function walk(
  table: CtTable,
  path: PathKind,
  packet: CtPacket,
  nowMs: number,
  rng: Rng,
  rules: NatRules = {},
  drop = false,
): WalkResult {
  const ct = ctLookupOrCreate(table, packet, nowMs);
  let p = packet;
  if (ct.kind !== 'tracked') return { ct, packet: p, dropped: false };
  const [first, last] = PATHS[path];
  for (const hook of [first, last]) {
    const manip = hook === 'OUTPUT' || hook === 'PREROUTING' ? 'dnat' : 'snat';
    if ((ct.ctstate === 'NEW' || ct.ctstate === 'RELATED') && natNeeded(ct.entry, manip)) {
      natSetup(table, ct.entry, manip, rules[hook as keyof NatRules]?.(p) ?? null, rng, nowMs);
    }
    p = natPacket(ct.entry, ct.dir, hook, p).packet;
    if (drop) {
      ctDrop(table, ct.entry);
      return { ct, packet: p, dropped: true };
    }
  }
  const confirmed = ctConfirm(table, ct.entry, nowMs);
  return { ct, packet: p, dropped: !confirmed.ok && !ct.killed };
}

/** A deterministic Rng returning the given values in turn (then zeros). */
export function fixedRng(values: readonly number[]): Rng {
  let i = 0;
  return { nextU32: () => values[i++] ?? 0 };
}
