/**
 * Rule objects as the parsers make them: every field of Rule present, absent ones undefined, in
 * the order a rule's JSON shows them — one object layout for every rule (see Rule in types.ts).
 */
import type { AddrSpec, Counters, IfaceSpec, Match, Rule, Target } from './types';

/** A rule with every field of Rule present, in the order its JSON shows them. */
export function newRule(
  src: AddrSpec | undefined,
  dst: AddrSpec | undefined,
  inIface: IfaceSpec | undefined,
  outIface: IfaceSpec | undefined,
  protocol: Rule['protocol'],
  fragment: Rule['fragment'],
  matches: readonly Match[],
  target: Target,
  counters: Counters,
): Rule {
  return {
    src,
    dst,
    inIface,
    outIface,
    protocol,
    fragment,
    matches,
    target,
    counters,
    nftHandle: undefined,
  };
}
