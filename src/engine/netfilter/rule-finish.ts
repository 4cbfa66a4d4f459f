/**
 * The tail of the command-line parse (xshared.c do_parse() after its option loop): the
 * checks iptables makes once all options are read, and the structured rule.
 */
import { XtError } from './errors';
import type { ExtParser, ParseCtx } from './ext';
import { foldNativePortMatches, hasPortRange } from './matches';
import { ILLEGAL, MAXNAMELEN, type Cmd } from './cli-options';
import { parseRuleAddrs } from './rule-args';
import type { ParsedArgs } from './rule-parse';
import { newRule } from './new-rule';
import type { Counters, Match, Rule, Target } from './types';

export interface LoadedMatch {
  readonly name: string;
  readonly parser: ExtParser<Match>;
  completed: boolean;
}

/** What the option loop of parseArgs() collected. */
export interface Collected {
  readonly table: string;
  readonly policy: string | undefined;
  readonly target: ExtParser<Target> | undefined;
  readonly matches: readonly LoadedMatch[];
  readonly proto: number;
  readonly cmds: ReadonlySet<Cmd>;
  readonly invert: boolean;
  readonly deleteNum: boolean;
  readonly given: ReadonlySet<string>;
  readonly inverted: ReadonlySet<string>;
  readonly chain: string | undefined;
  readonly inIface: string | undefined;
  readonly outIface: string | undefined;
  readonly src: string | undefined;
  readonly dst: string | undefined;
  readonly jumpTo: string | undefined;
  readonly isGoto: boolean;
  readonly counters: Counters | undefined;
  readonly rulenum: number;
  readonly newName: string | undefined;
  readonly verbose: boolean;
  readonly ctx: ParseCtx;
}

/** The checks after the option loop (do_parse() tail, generic_opt_check()) and the rule. */
export function finishParse(c: Collected): ParsedArgs {
  if (
    c.table === 'nat' &&
    (c.policy === 'DROP' || (c.target !== undefined && c.target.name === 'DROP'))
  ) {
    throw XtError.param(
      '\nThe "nat" table is not intended for filtering, the use of DROP is therefore inhibited.\n\n',
    );
  }
  const builtMatches = c.matches.map((m) => m.parser.finish(c.ctx));
  // nft.c add_nft_tcp/udp(): ports become native payload matches, which need `-p tcp/udp`.
  for (const m of builtMatches) {
    if (m.name === 'tcp' && hasPortRange(m) && c.proto !== 6)
      throw XtError.param("TCP match requires '-p tcp'");
    if (m.name === 'udp' && hasPortRange(m) && c.proto !== 17)
      throw XtError.param("UDP match requires '-p udp'");
  }
  const builtTarget = c.target?.finish(c.ctx);
  const listing = c.cmds.has('L') ? 'L' : c.cmds.has('S') ? 'S' : undefined;
  let cmd: Cmd | undefined = listing;
  if (cmd === undefined) for (const k of c.cmds) if (cmd === undefined) cmd = k;
  const zeroToo = listing !== undefined && c.cmds.has('Z');
  if (cmd === undefined) throw XtError.param('no command specified');
  if (c.invert) throw XtError.param('nothing appropriate following !');
  // The addresses are read before the remaining checks, as do_parse() does.
  const srcs = c.src !== undefined ? parseRuleAddrs(c.src, c.inverted.has('s')) : [undefined];
  const dsts = c.dst !== undefined ? parseRuleAddrs(c.dst, c.inverted.has('d')) : [undefined];
  if ((srcs.length > 1 || dsts.length > 1) && (c.inverted.has('s') || c.inverted.has('d')))
    throw XtError.param('! not allowed with multiple source or destination IP addresses');
  if (cmd === 'R' && (srcs.length > 1 || dsts.length > 1))
    throw XtError.param('Replacement rule does not specify a unique address');
  // generic_opt_check(): an option is legal when any of the given commands allows it.
  if (c.given.size > 0) {
    const keys = [...c.cmds].map((k) => (k === 'D' && c.deleteNum ? 'DNUM' : k));
    for (const o of 'nsdpjvxio0cf') {
      if (c.given.has(o) && keys.every((k) => (ILLEGAL[k] ?? '').includes(o))) {
        throw XtError.param(`Illegal option \`-${o}' with this command`);
      }
    }
  }
  if (c.chain !== undefined && c.chain.length >= MAXNAMELEN) {
    throw XtError.param(`chain name \`${c.chain}' too long (must be under ${MAXNAMELEN} chars)`);
  }
  const wantsRule =
    (cmd === 'A' || cmd === 'C' || cmd === 'I' || cmd === 'R' || cmd === 'D') && !c.deleteNum;
  if (wantsRule && c.chain !== undefined) {
    if ((c.chain === 'PREROUTING' || c.chain === 'INPUT') && c.outIface !== undefined)
      throw XtError.param(`Can't use -o with ${c.chain}\n`);
    if ((c.chain === 'POSTROUTING' || c.chain === 'OUTPUT') && c.inIface !== undefined)
      throw XtError.param(`Can't use -i with ${c.chain}\n`);
  }
  // One rule per source and destination address, sources outermost (add_entry() and the
  // other rule commands of xtables.c loop the same way); the parts besides the addresses and
  // the counters are shared, as parses share them.
  const rules: Rule[] = [];
  if (wantsRule) {
    const inIface =
      c.inIface !== undefined ? { name: c.inIface, invert: c.inverted.has('i') } : undefined;
    const outIface =
      c.outIface !== undefined ? { name: c.outIface, invert: c.inverted.has('o') } : undefined;
    const protocol =
      c.proto !== 0 || c.inverted.has('p') ? { num: c.proto, invert: c.inverted.has('p') } : undefined; // prettier-ignore
    const fragment = c.given.has('f') ? { invert: c.inverted.has('f') } : undefined;
    const matches = foldNativePortMatches(builtMatches);
    const target: Target =
      builtTarget ??
      (c.jumpTo !== undefined ? { kind: 'jump', chain: c.jumpTo, goto: c.isGoto } : { kind: 'none' }); // prettier-ignore
    for (const src of srcs) {
      for (const dst of dsts) {
        const counters = c.counters ?? { packets: 0, bytes: 0 };
        rules.push(newRule(src, dst, inIface, outIface, protocol, fragment, matches, target, { ...counters })); // prettier-ignore
      }
    }
  }
  const [rule, ...more] = rules;
  return {
    cmd,
    zeroToo,
    chain: c.chain,
    rulenum: c.rulenum,
    newName: c.newName,
    policy: c.policy,
    table: c.table,
    numeric: c.given.has('n'),
    verbose: c.verbose,
    exact: c.given.has('x'),
    lineNumbers: c.given.has('0'),
    rule,
    counters: c.counters,
    ...(more.length > 0 ? { more } : {}),
  };
}
