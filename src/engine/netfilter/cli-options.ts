/**
 * The option tables of the iptables command line (xshared.c/iptables.c) and small parsers
 * the command parser shares with restore.
 */
import { XtError } from './errors';
import type { ExtParser } from './ext';
import { targetParser } from './targets';
import { isUnmodelledTarget } from './not-modelled';

export type Cmd = 'A' | 'C' | 'D' | 'I' | 'R' | 'L' | 'S' | 'F' | 'Z' | 'N' | 'X' | 'E' | 'P' | 'V';

/** Short options: letter → argument kind (xshared.h IPT_OPTSTRING). */
export const SHORT: Readonly<Record<string, 'req' | 'opt' | 'none'>> = {
  A: 'req',
  C: 'req',
  D: 'req',
  E: 'req',
  F: 'opt',
  I: 'req',
  L: 'opt',
  M: 'req',
  N: 'req',
  P: 'req',
  V: 'none',
  X: 'opt',
  Z: 'opt',
  c: 'req',
  d: 'req',
  i: 'req',
  j: 'req',
  o: 'req',
  p: 'req',
  s: 'req',
  t: 'req',
  R: 'req',
  S: 'opt',
  W: 'opt',
  '4': 'none',
  '6': 'none',
  b: 'none',
  f: 'none',
  g: 'req',
  h: 'opt',
  m: 'req',
  n: 'none',
  v: 'none',
  w: 'opt',
  x: 'none',
};

/** Long options of iptables (original_opts[]) → the short letter ('0' = --line-numbers). */
export const LONG: Readonly<Record<string, string>> = {
  append: 'A',
  delete: 'D',
  check: 'C',
  insert: 'I',
  replace: 'R',
  list: 'L',
  'list-rules': 'S',
  flush: 'F',
  zero: 'Z',
  'new-chain': 'N',
  'delete-chain': 'X',
  'rename-chain': 'E',
  policy: 'P',
  source: 's',
  destination: 'd',
  src: 's',
  dst: 'd',
  protocol: 'p',
  'in-interface': 'i',
  jump: 'j',
  table: 't',
  match: 'm',
  numeric: 'n',
  'out-interface': 'o',
  verbose: 'v',
  wait: 'w',
  'wait-interval': 'W',
  exact: 'x',
  version: 'V',
  help: 'h',
  'line-numbers': '0',
  modprobe: 'M',
  'set-counters': 'c',
  goto: 'g',
  ipv4: '4',
  ipv6: '6',
};

/** cmd2char/add_command(): which commands may be combined. */
export const CMD_OK_WITH: Readonly<Partial<Record<Cmd, readonly Cmd[]>>> = {
  L: ['Z'],
  S: ['Z'],
  Z: ['L', 'S'],
};

/** generic_opt_check(): options that are illegal with a command (commands_v_options[]). */
export const ILLEGAL: Readonly<Record<string, string>> = {
  A: 'nx0',
  I: 'nx0',
  R: 'nx0',
  D: 'nx0c',
  C: 'nx0c',
  DNUM: 'nsdpjxio0cf',
  L: 'sdpjiocf',
  S: 'nsdpjxio0cf',
  F: 'nsdpjxio0cf',
  Z: 'nsdpjxio0cf',
  N: 'nsdpjxio0cf',
  X: 'nsdpjxio0cf',
  P: 'nsdpjxio0f',
  E: 'nsdpjxio0cf',
  V: '',
};

/** xs_has_arg(): the next word exists and is not an option or `!`. */
export function hasArg(argv: readonly string[], i: number): boolean {
  const next = argv[i];
  return next !== undefined && !next.startsWith('-') && !next.startsWith('!');
}

/** XT_EXTENSION_MAXNAMELEN (29 with the NUL). */
export const MAXNAMELEN = 29;

const LONG_NAMES = Object.keys(LONG);
/** Results of the lookups below; both are pure functions of their (few distinct) inputs. */
const globalMemo = new Map<string, string | undefined>();
const longMemo = new Map<string, string | undefined>();

/** getopt_long(): an exact name, or an unambiguous prefix of one. */
export function resolveGlobal(name: string): string | undefined {
  if (LONG[name] !== undefined) return LONG[name];
  if (globalMemo.has(name)) return globalMemo.get(name);
  const hits = LONG_NAMES.filter((k) => k.startsWith(name));
  const letters = new Set(hits.map((k) => LONG[k]));
  const r = letters.size === 1 && hits.length > 0 ? LONG[hits[0] ?? ''] : undefined;
  if (globalMemo.size < 4096) globalMemo.set(name, r);
  return r;
}

/**
 * The extension option `name` abbreviates among the options of `parsers` (an extension's
 * options are fixed by its name, so the names of the parsers key the memo).
 */
export function resolveLong(
  name: string,
  parsers: readonly ExtParser<unknown>[],
): string | undefined {
  let key = name;
  for (const p of parsers) key += `\0${p.name}`;
  if (longMemo.has(key)) return longMemo.get(key);
  const names = new Set(parsers.flatMap((p) => p.options.map((o) => o.name)));
  let r: string | undefined;
  if (names.has(name)) r = name;
  else {
    const hits = [...names].filter((n) => n.startsWith(name));
    const globalHits = LONG_NAMES.filter((k) => k.startsWith(name));
    r = hits.length === 1 && globalHits.length === 0 ? hits[0] : undefined;
  }
  if (longMemo.size < 4096) longMemo.set(key, r);
  return r;
}

/** load_proto() for a numeric `-p`: the protocol match of that number (`-p 1` loads icmp). */
export function protoNameForLoad(num: number): string | undefined {
  if (num === 1) return 'icmp';
  return num === 6 ? 'tcp' : num === 17 ? 'udp' : num === 132 ? 'sctp' : undefined;
}

/** parse_rulenumber(): 1..INT_MAX. */
export function parseRulenum(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 0x7fffffff) {
    throw XtError.param(`Invalid rule number \`${text}'`);
  }
  return Number(text);
}

/** assert_valid_chain_name(). */
export function assertValidChainName(name: string): void {
  if (name.length >= MAXNAMELEN)
    throw XtError.param(`chain name \`${name}' too long (must be under ${MAXNAMELEN} chars)`);
  if (name.startsWith('-') || name.startsWith('!')) {
    throw XtError.param(`chain name not allowed to start with \`${name[0] ?? ''}'`);
  }
  // xtables_find_target() takes "" for the standard target, as it takes ACCEPT, DROP…
  if (name === '' || targetParser(name) !== undefined || isUnmodelledTarget(name))
    throw XtError.param('chain name may not clash with target name');
  if (/\s/.test(name)) throw XtError.param(`Invalid chain name \`${name}'`);
}
