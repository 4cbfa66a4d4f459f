/**
 * The iptables command line (xshared.c do_parse()): commands, rule options, matches with
 * their options, the implicit protocol match (`-p tcp --dport 80` loads `-m tcp`), and the
 * checks that follow, with iptables' own error texts. Used by `iptables` and by each line of
 * `iptables-restore`.
 */
import { XtError } from './errors';
import { warnAtParse } from './parse-warnings';
import type { ExtParser, ParseCtx } from './ext';
import { matchParser } from './matches';
import type { IpsetLookup } from './match-misc';
import { unmodelledMatch, unmodelledTarget } from './not-modelled';
import { finishParse, type LoadedMatch } from './rule-finish';
import { parseProtocol } from './protocols';
import { parseCounters } from './rule-args';
import { targetParser } from './targets';
import {
  CMD_OK_WITH,
  MAXNAMELEN,
  SHORT,
  assertValidChainName,
  hasArg,
  parseRulenum,
  protoNameForLoad,
  resolveGlobal,
  resolveLong,
  type Cmd,
} from './cli-options';

export { assertValidChainName, type Cmd };
import type { Counters, Match, Rule, Target, TableName } from './types';

export interface ParsedArgs {
  readonly cmd: Cmd | undefined;
  /** `-L`/`-S` together with `-Z`. */
  readonly zeroToo: boolean;
  readonly chain: string | undefined;
  /** 0 = not given. */
  readonly rulenum: number;
  readonly newName: string | undefined;
  readonly policy: string | undefined;
  readonly table: string;
  readonly numeric: boolean;
  readonly verbose: boolean;
  readonly exact: boolean;
  readonly lineNumbers: boolean;
  /** For -A/-C/-D/-I/-R (absent for `-D chain N`). */
  readonly rule: Rule | undefined;
  readonly counters: Counters | undefined;
  /**
   * The rules after `rule` when `-s`/`-d` listed several addresses (a comma list): the
   * command applies to each in turn, in one batch.
   */
  readonly more?: readonly Rule[];
}

export function parseArgs(
  argv: readonly string[],
  opts: { restore: boolean; table: string; ipsets?: IpsetLookup | undefined },
): ParsedArgs {
  let deleteNum = false;
  let chain: string | undefined;
  let rulenum = 0;
  let newName: string | undefined;
  let policy: string | undefined;
  let table = opts.table;
  let tableSet = opts.restore;
  let verbose = false;
  let waitGiven = false;
  let waitIntervalGiven = false;
  const given = new Set<string>();
  const inverted = new Set<string>();
  let invert = false;
  let protoText: string | undefined;
  let proto = 0;
  let protoUsed = false;
  const matches: LoadedMatch[] = [];
  let target: ExtParser<Target> | undefined;
  let jumpTo: string | undefined;
  let isGoto = false;
  let src: string | undefined;
  let dst: string | undefined;
  let inIface: string | undefined;
  let outIface: string | undefined;
  let counters: Counters | undefined;

  const ctx = (): ParseCtx => ({
    table: table as TableName,
    proto,
    protoInvert: inverted.has('p'),
  });

  const cmds = new Set<Cmd>();
  const addCommand = (c: Cmd): void => {
    if (invert) throw XtError.param("unexpected '!' flag");
    const other = [...cmds].find((x) => !(CMD_OK_WITH[c] ?? []).includes(x));
    if (other !== undefined) throw XtError.param(`Cannot use -${c} with -${other}`);
    cmds.add(c);
  };

  /** set_option(): each of these options once; only -s -d -p -i -o -f may be inverted. */
  const setOption = (o: string): void => {
    if (given.has(o)) throw XtError.param(`multiple -${o} flags not allowed`);
    given.add(o);
    if (invert) {
      if (!'sdpiof'.includes(o)) throw XtError.param(`cannot have ! before -${o}`);
      inverted.add(o);
    }
  };

  const loadMatch = (name: string): void => {
    const parser = matchParser(name, opts.ipsets);
    if (parser === undefined) {
      throw (
        unmodelledMatch(name) ??
        XtError.param(`Couldn't load match \`${name}':No such file or directory\n`)
      );
    }
    for (const m of matches) if (m.name === name) m.completed = true;
    matches.push({ name, parser, completed: false });
  };

  let i = 0;
  const takeReq = (token: string, inline: string | undefined): string => {
    if (inline !== undefined) return inline;
    const next = argv[i];
    if (next === undefined) throw XtError.param(`option "${token}" requires an argument`);
    i++;
    return next;
  };
  const takeOpt = (inline: string | undefined): string | undefined => {
    if (inline !== undefined && inline !== '') return inline;
    if (hasArg(argv, i)) return argv[i++];
    return undefined;
  };

  const runShort = (letter: string, token: string, inline: string | undefined): void => {
    switch (letter) {
      case 'A':
      case 'C':
      case 'I':
      case 'R':
      case 'D':
      case 'N':
      case 'E':
      case 'P': {
        const c = letter as Cmd;
        addCommand(c);
        chain = takeReq(token, inline);
        if (c === 'N') assertValidChainName(chain);
        if (c === 'D' && hasArg(argv, i)) {
          rulenum = parseRulenum(argv[i++] ?? '');
          deleteNum = true;
        } else if (c === 'R') {
          if (!hasArg(argv, i)) throw XtError.param('-R requires a rule number');
          rulenum = parseRulenum(argv[i++] ?? '');
        } else if (c === 'I') {
          rulenum = hasArg(argv, i) ? parseRulenum(argv[i++] ?? '') : 1;
        } else if (c === 'E') {
          if (!hasArg(argv, i))
            throw XtError.param('-E requires old-chain-name and new-chain-name');
          newName = argv[i++];
        } else if (c === 'P') {
          if (!hasArg(argv, i)) throw XtError.param('-P requires a chain and a policy');
          policy = argv[i++];
        }
        return;
      }
      case 'L':
      case 'S':
      case 'F':
      case 'Z':
      case 'X': {
        addCommand(letter);
        const arg = takeOpt(inline);
        if (arg !== undefined) {
          chain = arg;
          if ((letter === 'L' || letter === 'S' || letter === 'Z') && hasArg(argv, i)) {
            rulenum = parseRulenum(argv[i++] ?? '');
          }
        }
        return;
      }
      case 'V':
        throw XtError.other(
          invert ? `Not iptables v1.8.9 (nf_tables) ;-)\n` : `iptables v1.8.9 (nf_tables)\n`,
          0,
        );
      case 'p': {
        setOption('p');
        protoText = takeReq(token, inline).toLowerCase();
        proto = parseProtocol(protoText);
        if (proto === 0 && inverted.has('p'))
          throw XtError.param('rule would never match protocol');
        return;
      }
      case 's':
        setOption('s');
        src = takeReq(token, inline);
        return;
      case 'd':
        setOption('d');
        dst = takeReq(token, inline);
        return;
      case 'i':
      case 'o': {
        const name = takeReq(token, inline);
        if (name === '') throw XtError.param('Empty interface is likely to be undesired');
        setOption(letter);
        if (name.length > 15)
          throw XtError.param(`interface name \`${name}' must be shorter than IFNAMSIZ (15)`);
        if (letter === 'i') inIface = name;
        else outIface = name;
        return;
      }
      case 'j':
      case 'g': {
        setOption('j');
        const name = takeReq(token, inline);
        if (name.length < 1) throw XtError.param('Invalid target name (too short)');
        if (name.length >= MAXNAMELEN)
          throw XtError.param(`Invalid target name \`${name}' (${MAXNAMELEN - 1} chars max)`);
        isGoto = letter === 'g';
        target = isGoto ? undefined : targetParser(name);
        if (target === undefined && !isGoto) {
          const note = unmodelledTarget(name);
          if (note !== undefined) throw note;
        }
        if (target === undefined) jumpTo = name;
        return;
      }
      case 'm':
        if (invert) throw XtError.param('unexpected ! flag before --match');
        loadMatch(takeReq(token, inline));
        return;
      case 't':
        if (invert) throw XtError.param('unexpected ! flag before --table');
        if (opts.restore && tableSet)
          throw XtError.param(`The -t option cannot be used in iptables-restore.\n`);
        table = takeReq(token, inline);
        tableSet = true;
        return;
      case 'c': {
        setOption('c');
        const p = takeReq(token, inline);
        const comma = p.indexOf(',', 1);
        let b = comma >= 0 ? p.slice(comma + 1) : undefined;
        if (b === undefined && hasArg(argv, i)) b = argv[i++];
        counters = parseCounters(comma >= 0 ? p.slice(0, comma) : p, b);
        return;
      }
      case 'n':
      case 'x':
      case '0':
      case 'f':
        setOption(letter);
        return;
      case 'v':
        if (!verbose) setOption('v');
        verbose = true;
        return;
      case 'w':
      case 'W': {
        if (opts.restore) throw XtError.param(`You cannot use \`-${letter}' from iptables-restore`);
        // xshared.c parse_wait_time() / parse_wait_interval(): the value is checked (sscanf
        // %i, %u), then iptables-nft ignores it, and says so of -W.
        const value = takeOpt(inline);
        if (letter === 'w') {
          if (value !== undefined && !/^\s*[+-]?\d/.test(value))
            throw XtError.param('wait seconds not numeric');
          waitGiven = true;
          return;
        }
        if (value === undefined) throw XtError.param('wait interval value required');
        const m = /^\s*([+-]?)(\d+)/.exec(value);
        if (m === null) throw XtError.param('wait interval not numeric');
        const n = Number(m[2]) % 2 ** 32;
        const usec = m[1] === '-' && n !== 0 ? 2 ** 32 - n : n;
        if (usec > 999999) throw XtError.param(`too long usec wait ${usec} > 999999 usec`);
        warnAtParse('Ignoring deprecated --wait-interval option.\n');
        waitIntervalGiven = true;
        return;
      }
      case 'M':
        takeReq(token, inline);
        return;
      case '4':
      case 'b':
        return;
      case '6':
        throw XtError.raw('');
      default:
        throw XtError.param(`unknown option "${token}"`);
    }
  };

  /** Options of the target and loaded matches (command_default()), then the implicit proto match. */
  const runExtOption = (token: string, name: string, inline: string | undefined): boolean => {
    const owners: ExtParser<Match | Target>[] = [];
    if (target !== undefined) owners.push(target);
    for (const m of matches) if (!m.completed) owners.push(m.parser);
    const known = [...owners, ...matches.map((m) => m.parser)];
    const resolved = resolveLong(name, known);
    if (resolved !== undefined) {
      const owner = owners.find((o) => o.options.some((e) => e.name === resolved));
      if (owner !== undefined) {
        const entry = owner.options.find((e) => e.name === resolved);
        let arg: string | undefined;
        if (entry?.arg) {
          arg = takeReq(token, inline);
          // set: --match-set NAME FLAGS takes the following word too.
          if (resolved === 'match-set') arg = hasArg(argv, i) ? `${arg} ${argv[i++] ?? ''}` : arg;
          // tcp: --tcp-flags MASK COMP (tcp_parse(): the next word, which must not be an option).
          if (resolved === 'tcp-flags') {
            const comp = argv[i];
            if (comp === undefined || comp.startsWith('-') || comp.startsWith('!'))
              throw XtError.param('--tcp-flags requires two args.');
            arg = `${arg} ${comp}`;
            i++;
          }
        }
        owner.take(resolved, arg, invert, ctx());
        return true;
      }
    }
    // load_proto(): `-p tcp` then an unknown option loads the tcp match once.
    if (protoText !== undefined && !protoUsed) {
      const pname = /^\d+$/.test(protoText) ? protoNameForLoad(proto) : protoText;
      if (pname !== undefined && matchParser(pname) !== undefined) {
        protoUsed = true;
        loadMatch(pname);
        return runExtOption(token, name, inline);
      }
    }
    if (resolved !== undefined) throw XtError.param(`Unknown arg "${inline ?? ''}"`);
    return false;
  };

  while (i < argv.length) {
    const token = argv[i++] ?? '';
    if (token.startsWith('--') && token.length > 2) {
      const eq = token.indexOf('=');
      const name = eq < 0 ? token.slice(2) : token.slice(2, eq);
      const inline = eq < 0 ? undefined : token.slice(eq + 1);
      const global = resolveGlobal(name);
      if (global !== undefined && !extHas(name, target, matches)) runShort(global, token, inline);
      else if (!runExtOption(token, name, inline)) throw XtError.param(`unknown option "${token}"`);
    } else if (token.startsWith('-') && token.length > 1) {
      for (let k = 1; k < token.length; k++) {
        const letter = token[k] ?? '';
        const kind = SHORT[letter];
        if (kind === undefined) {
          if (!runExtOption(token, '\u0000', undefined))
            throw XtError.param(`unknown option "${token}"`);
          break;
        }
        const rest = token.slice(k + 1);
        if (kind === 'none') {
          runShort(letter, `-${letter}`, undefined);
        } else {
          runShort(letter, `-${letter}`, rest === '' ? undefined : rest);
          break;
        }
        invert = false;
      }
    } else if (token === '!') {
      if (invert) throw XtError.param('multiple consecutive ! not allowed');
      invert = true;
      continue;
    } else {
      throw XtError.raw(`Bad argument \`${token}'\n`);
    }
    invert = false;
  }

  if (waitIntervalGiven && !waitGiven)
    throw XtError.param('--wait-interval only makes sense with --wait\n');
  return finishParse({
    table,
    policy,
    target,
    matches,
    proto,
    cmds,
    invert,
    deleteNum,
    given,
    inverted,
    chain,
    inIface,
    outIface,
    src,
    dst,
    jumpTo,
    isGoto,
    counters,
    rulenum,
    newName,
    verbose,
    ctx: ctx(),
  });
}

function extHas(
  name: string,
  target: ExtParser<Target> | undefined,
  matches: readonly LoadedMatch[],
): boolean {
  const all = [...(target ? [target] : []), ...matches.map((m) => m.parser)];
  return all.some((p) => p.options.some((o) => o.name === name));
}
