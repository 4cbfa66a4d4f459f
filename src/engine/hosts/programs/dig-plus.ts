/**
 * dig's `+keyword[=value]` options as BIND 9.18's bin/dig/dig.c plus_option() reads them.
 *
 * plus_option() walks a switch on the keyword's first letters (case-sensitive) and then checks
 * FULLCHECK(name): the keyword must be a prefix of the name (case-insensitive). So a keyword is
 * valid when it is at least as long as the letters its switch looked at and a prefix of the
 * name: `+ans`, `+answ` and `+answer` are +answer, `+an` is +answer too (the switch reads two
 * letters), `+a` is no option. A leading `no` (any case) clears the option. A keyword that is
 * no option — or lacks a value it needs — is `Invalid option: +KEYWORD`, then usage, exit 1.
 */

/** [name, letters the switch reads before FULLCHECK] for every keyword of dig 9.18.49. */
const KEYWORDS: readonly (readonly [string, number])[] = [
  ['aaonly', 2],
  ['aaflag', 2],
  ['additional', 3],
  // `case '\0'`: +ad is +adflag, as +cd is +cdflag and +co +coflag.
  ['adflag', 2],
  ['all', 2],
  ['answer', 2],
  ['authority', 2],
  ['badcookie', 2],
  ['besteffort', 2],
  ['bufsize', 2],
  ['cdflag', 2],
  ['class', 2],
  ['cmd', 2],
  ['coflag', 2],
  ['comments', 3],
  ['cookie', 3],
  ['crypto', 2],
  ['defname', 2],
  ['dns64prefix', 4],
  ['dnssec', 4],
  // `+do` is +dnssec; `+dom…` +domain.
  ['do', 2],
  ['domain', 3],
  ['dscp', 2],
  ['edns', 4],
  ['ednsflags', 5],
  ['ednsnegotiation', 5],
  ['ednsopt', 5],
  ['expandaaaa', 4],
  ['expire', 4],
  ['fail', 2],
  ['fuzztime', 2],
  ['header-only', 2],
  // FULLCHECK6 of the https family (Debian's dig has no libnghttp2: no further switch).
  ['https', 2],
  ['https-get', 2],
  ['https-post', 2],
  ['http-plain', 2],
  ['http-plain-get', 2],
  ['http-plain-post', 2],
  ['identify', 3],
  ['idnin', 4],
  ['idnout', 4],
  // `default:` of the +i… switch: "+[no]i*" is +ignore.
  ['ignore', 1],
  ['keepalive', 5],
  ['keepopen', 5],
  ['mapped', 2],
  ['multiline', 2],
  ['ndots', 2],
  ['nsid', 3],
  ['nssearch', 3],
  ['onesoa', 2],
  ['opcode', 2],
  ['padding', 1],
  ['qid', 2],
  ['qr', 2],
  ['question', 2],
  ['raflag', 2],
  ['rdflag', 2],
  ['recurse', 3],
  ['retry', 3],
  ['retries', 3],
  ['rrcomments', 2],
  ['search', 2],
  ['short', 4],
  ['showbadcookie', 5],
  ['showsearch', 5],
  ['sigchase', 2],
  ['split', 2],
  ['stats', 2],
  ['subnet', 2],
  ['tcflag', 3],
  ['tcp', 3],
  ['timeout', 2],
  ['tls', 3],
  ['tls-ca', 6],
  ['tls-certfile', 6],
  ['tls-hostname', 5],
  ['tls-keyfile', 5],
  ['topdown', 2],
  ['trace', 3],
  ['tries', 3],
  ['trusted-key', 3],
  ['ttlid', 3],
  ['ttlunits', 4],
  ['unexpected', 3],
  ['unknownformat', 3],
  ['vc', 1],
  ['yaml', 1],
  ['zflag', 1],
];

/** The option `keyword` (without `+` and `no`) stands for, or undefined: no dig option. */
export function digKeyword(keyword: string): string | undefined {
  for (const [name, letters] of KEYWORDS) {
    if (keyword.length < letters || keyword.length > name.length) continue;
    // The switch compares letters exactly; FULLCHECK ignores case.
    if (keyword.slice(0, letters) !== name.slice(0, letters)) continue;
    if (name.toLowerCase().startsWith(keyword.toLowerCase()))
      return name === 'do' ? 'dnssec' : name;
  }
  return undefined;
}

/** Keywords plus_option() refuses without a value (`goto need_value`), `no` or not. */
const NEEDS_VALUE = new Set(['domain', 'ndots', 'padding', 'retry', 'retries', 'timeout', 'tries']);

/** Keywords that need a value unless negated (checked with dig 9.18.49: +noqid is taken). */
const NEEDS_VALUE_SET = new Set([
  'opcode',
  'qid',
  'subnet',
  'tls-certfile',
  'tls-hostname',
  'tls-keyfile',
]);

/** Keywords it refuses with `no` (`if (!state) goto invalid_option`). */
const NO_NEGATION = new Set(['bufsize', 'domain', 'ndots', 'retry', 'retries', 'timeout', 'tries']);

/** Whether plus_option() takes `name` with this state and value (else: Invalid option). */
export function digValueAccepted(name: string, state: boolean, hasValue: boolean): boolean {
  if (!hasValue && (NEEDS_VALUE.has(name) || (state && NEEDS_VALUE_SET.has(name)))) return false;
  if (!state && (NO_NEGATION.has(name) || (name === 'split' && hasValue))) return false;
  return true;
}

/** The display flags of one lookup (dig_lookup_t's section_… , comments, stats). */
export interface DigDisplay {
  question: boolean;
  answer: boolean;
  authority: boolean;
  additional: boolean;
  comments: boolean;
  stats: boolean;
}

/** What the display options change: the lookup's flags and dig's globals. */
export interface DigPlusState {
  readonly display: DigDisplay;
  /** dig.c's global printcmd. */
  printcmd: boolean;
  short: boolean;
}

/**
 * Applies a display option as plus_option() does; false when `name` is not one. +all sets
 * every section, comments, stats and printcmd; +short turns the others off (+noshort only
 * clears short_form, it restores nothing).
 */
export function applyDisplayOption(name: string, state: boolean, s: DigPlusState): boolean {
  const d = s.display;
  if (name === 'all') {
    d.question = d.authority = d.answer = d.additional = d.comments = d.stats = state;
    s.printcmd = state;
  } else if (name === 'cmd') s.printcmd = state;
  else if (name === 'comments') d.comments = state;
  else if (name === 'question') d.question = state;
  else if (name === 'answer') d.answer = state;
  else if (name === 'authority') d.authority = state;
  else if (name === 'additional') d.additional = state;
  else if (name === 'stats') d.stats = state;
  else if (name === 'short') {
    s.short = state;
    if (state) {
      s.printcmd = false;
      d.additional = d.authority = d.question = d.comments = d.stats = false;
      d.answer = true;
    }
  } else return false;
  return true;
}

/**
 * Options that change nothing the lab's dig could show: behaviour the lab never meets (TCP
 * fallback, unexpected sources, IDN, SOA-only and AAAA/DNSSEC record formatting…).
 */
const NO_EFFECT = new Set([
  'besteffort',
  'crypto',
  'dscp',
  'expandaaaa',
  'fuzztime',
  'idnin',
  'idnout',
  'ignore',
  'keepopen',
  'onesoa',
  'rrcomments',
  'sigchase',
  'split',
  'unexpected',
]);

/** Options dig has on by default, as the lab's dig behaves (dig.c parse_args, dighost.c). */
const DEFAULT_ON = new Set([
  'adflag',
  'badcookie',
  'class',
  'cookie',
  'edns',
  'ednsnegotiation',
  'fail',
  'mapped',
  'rdflag',
  'recurse',
  'ttlid',
]);

/**
 * True when a valid option the lab does not model would change what dig sends or prints:
 * the lab runs without it and says so (a lab note) rather than print what dig would not.
 */
export function digOptionUnmodelled(name: string, state: boolean, hasValue: boolean): boolean {
  if (NO_EFFECT.has(name)) return false;
  if (hasValue) return true;
  return state !== DEFAULT_ON.has(name);
}
