/**
 * The parts of a restore rule line's parse (ParsedArgs of `-A CHAIN …`) as the fast path
 * (rule-fast.ts) builds them, shared with writers that build the parse of a line as they
 * write it (kube-proxy's endpoint rules, see restore-pieces.ts PrebuiltLines): both must give
 * the very value parseArgs() gives for the line, down to the key order and the parts that are
 * shared between parses.
 */
import type { ParsedArgs } from './rule-parse';
import { newRule } from './new-rule';
import type { AddrSpec, Counters, Match, Target } from './types';

/**
 * Parts that many rules have in common, shared between parses like the rest of a cached
 * parse (a parse is never changed; a rule going into a table gets counters of its own).
 */
export const NO_MATCHES: readonly Match[] = [];
const ZERO: Counters = { packets: 0, bytes: 0 };
export const PROTOCOL_SPEC: Readonly<Record<number, { num: number; invert: boolean }>> = {
  6: { num: 6, invert: false },
  17: { num: 17, invert: false },
  132: { num: 132, invert: false },
};
export type PortsMatchName = 'tcp' | 'udp' | 'sctp';
/** `-m tcp` (or udp, sctp) without ports. */
export const BARE_PORTS: Readonly<Record<PortsMatchName, Match>> = {
  tcp: { name: 'tcp' },
  udp: { name: 'udp' },
  sctp: { name: 'sctp' },
};
/** Protocol numbers of the ports matches (what `-p tcp` etc. name). */
export const PORTS_PROTOCOL: Readonly<Record<PortsMatchName, number>> = {
  tcp: 6,
  udp: 17,
  sctp: 132,
};

/** The last jump target made: endpoint chains jump to KUBE-MARK-MASQ one after the other. */
let lastJump: Target & { kind: 'jump' } = { kind: 'jump', chain: '', goto: false };

/** `-j CHAIN` for a name that is not a target extension's. */
export function jump(chain: string): Target {
  if (lastJump.chain !== chain) lastJump = { kind: 'jump', chain, goto: false };
  return lastJump;
}

export function commentMatch(comment: string): Match {
  return { name: 'comment', comment };
}

/** `-m statistic --mode random --probability P`, P as probabilityThreshold() gives it. */
export function randomMatch(probability: number): Match {
  return { name: 'statistic', mode: 'random', probability, every: 0, packet: 0, invert: false };
}

/** `-j DNAT --to-destination ADDR:PORT`. */
export function dnatTo(addr: string, port: number): Target {
  return {
    kind: 'DNAT',
    range: {
      minPort: port,
      maxPort: port,
      minAddr: addr,
      maxAddr: addr,
      random: false,
      randomFully: false,
      persistent: false,
    },
  };
}

/** An `-A` line's parse from its parts; `proto` 0 when the line has no `-p`. */
export function appendParse(
  table: string,
  chain: string,
  src: AddrSpec | undefined,
  dst: AddrSpec | undefined,
  proto: number,
  matches: readonly Match[],
  target: Target,
): ParsedArgs {
  const protocol = proto !== 0 ? PROTOCOL_SPEC[proto]! : undefined;
  const rule = newRule(src, dst, undefined, undefined, protocol, undefined, matches, target, ZERO);
  return {
    cmd: 'A',
    zeroToo: false,
    chain,
    rulenum: 0,
    newName: undefined,
    policy: undefined,
    table,
    numeric: false,
    verbose: false,
    exact: false,
    lineNumbers: false,
    rule,
    counters: undefined,
  };
}
