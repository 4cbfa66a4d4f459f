/**
 * The option tables of conntrack-tools 1.4.7 (src/conntrack.c: original_opts, getopt_str,
 * commands_v_options, optflags; extensions/libct_proto_{tcp,udp,icmp}.c) and a getopt_long
 * work-alike: clustered short options, `--opt=value`, unique long-option prefixes, optional
 * arguments taken from the next word unless it starts with '-' or '!', non-options skipped.
 */

/** Thrown for PARAMETER_PROBLEM (exit 2, with the "Try `conntrack -h'" line). */
export class ParamError extends Error {}
/** Thrown for OTHER_PROBLEM (exit 1, message only). */
export class OtherError extends Error {}

/** 0: no argument, 1: required, 2: optional. */
type HasArg = 0 | 1 | 2;

interface LongOpt {
  readonly name: string;
  readonly hasArg: HasArg;
  readonly val: string;
}

const long = (name: string, hasArg: HasArg, val: string): LongOpt => ({ name, hasArg, val });

/** original_opts[], in table order (get_long_opt() returns the first name of a value). */
export const ORIGINAL_OPTS: readonly LongOpt[] = [
  long('dump', 2, 'L'),
  long('create', 2, 'I'),
  long('add', 2, 'A'),
  long('delete', 2, 'D'),
  long('update', 2, 'U'),
  long('get', 2, 'G'),
  long('flush', 2, 'F'),
  long('event', 2, 'E'),
  long('counter', 2, 'C'),
  long('stats', 0, 'S'),
  long('version', 0, 'V'),
  long('help', 0, 'h'),
  long('orig-src', 1, 's'),
  long('src', 1, 's'),
  long('orig-dst', 1, 'd'),
  long('dst', 1, 'd'),
  long('reply-src', 1, 'r'),
  long('reply-dst', 1, 'q'),
  long('protonum', 1, 'p'),
  long('timeout', 1, 't'),
  long('status', 1, 'u'),
  long('zero', 0, 'z'),
  long('event-mask', 1, 'e'),
  long('tuple-src', 1, '['),
  long('tuple-dst', 1, ']'),
  long('mask-src', 1, '{'),
  long('mask-dst', 1, '}'),
  long('nat-range', 1, 'a'),
  long('mark', 1, 'm'),
  long('secmark', 1, 'c'),
  long('id', 2, 'i'),
  long('family', 1, 'f'),
  long('src-nat', 2, 'n'),
  long('dst-nat', 2, 'g'),
  long('output', 1, 'o'),
  long('buffer-size', 1, 'b'),
  long('any-nat', 2, 'j'),
  long('zone', 1, 'w'),
  long('label', 1, 'l'),
  long('label-add', 1, '<'),
  long('label-del', 2, '>'),
  long('orig-zone', 1, '('),
  long('reply-zone', 1, ')'),
];

/** getopt_str ":LIUDGEFAhVs:d:r:q:p:t:u:e:a:z[:]:{:}:m:i:f:o:n::g::c:b:C::Sj::w:l:<:>::(:):". */
const SHORT: ReadonlyMap<string, HasArg> = (() => {
  const spec = 'LIUDGEFAhVs:d:r:q:p:t:u:e:a:z[:]:{:}:m:i:f:o:n::g::c:b:C::Sj::w:l:<:>::(:):';
  const map = new Map<string, HasArg>();
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i] ?? '';
    let has: HasArg = 0;
    if (spec[i + 1] === ':') {
      has = spec[i + 2] === ':' ? 2 : 1;
      i += has;
    }
    map.set(c, has);
  }
  return map;
})();

/** Protocol extension options, merged after `-p` (values prefixed so they cannot clash). */
const PORT_OPTS: readonly LongOpt[] = [
  long('orig-port-src', 1, 'x:sport'),
  long('sport', 1, 'x:sport'),
  long('orig-port-dst', 1, 'x:dport'),
  long('dport', 1, 'x:dport'),
  long('reply-port-src', 1, 'x:rsport'),
  long('reply-port-dst', 1, 'x:rdport'),
  long('mask-port-src', 1, 'x:mask'),
  long('mask-port-dst', 1, 'x:mask'),
];
export const PROTO_EXT_OPTS: Readonly<Record<string, readonly LongOpt[]>> = {
  tcp: [
    ...PORT_OPTS,
    long('state', 1, 'x:state'),
    long('tuple-port-src', 1, 'x:tuple'),
    long('tuple-port-dst', 1, 'x:tuple'),
  ],
  udp: [...PORT_OPTS, long('tuple-port-src', 1, 'x:tuple'), long('tuple-port-dst', 1, 'x:tuple')],
  icmp: [
    long('icmp-type', 1, 'x:itype'),
    long('icmp-code', 1, 'x:icode'),
    long('icmp-id', 1, 'x:iid'),
  ],
};

/** Option bits in enum ct_options order, with their optflags[] names. */
export const OPT_FLAGS = [
  ['s', 'src'],
  ['d', 'dst'],
  ['r', 'reply-src'],
  ['q', 'reply-dst'],
  ['p', 'protonum'],
  ['t', 'timeout'],
  ['u', 'status'],
  ['z', 'zero'],
  ['e', 'event-mask'],
  ['[', 'tuple-src'],
  [']', 'tuple-dst'],
  ['{', 'mask-src'],
  ['}', 'mask-dst'],
  ['a', 'nat-range'],
  ['m', 'mark'],
  ['i', 'id'],
  ['f', 'family'],
  ['n', 'src-nat'],
  ['g', 'dst-nat'],
  ['o', 'output'],
  ['c', 'secmark'],
  ['b', 'buffer-size'],
  ['j', 'any-nat'],
  ['w', 'zone'],
  ['l', 'label'],
  ['<', 'label-add'],
  ['>', 'label-del'],
  ['(', 'orig-zone'],
  [')', 'reply-zone'],
] as const;

/** commands_v_options rows (0 illegal, 2 optional) of the commands the lab runs. */
export const COMMAND_OPTIONS: Readonly<Record<string, string>> = {
  CT_LIST: '22222022000220202222202220022',
  CT_DELETE: '22222220000220222222000220022',
  CT_FLUSH: '00000000000000002000000000000',
  CT_EVENT: '22222000200220202222222220022',
  CT_VERSION: '00000000000000000000000000000',
  CT_HELP: '00002000000000000000000000000',
  EXP_LIST: '00000000000000002002000000000',
  EXP_FLUSH: '00000000000000000000000000000',
  CT_COUNT: '00000000000000000000000000000',
  EXP_COUNT: '00000000000000000000000000000',
  CT_STATS: '00000000000000000000000000000',
  EXP_STATS: '00000000000000000000000000000',
  NONE: '00000000000000000000000000000',
};

/** One option occurrence as getopt_long returns it. */
export interface Opt {
  readonly val: string;
  readonly arg?: string;
  /** How argv[optind-1] reads at this point (used in error messages). */
  readonly text: string;
}

/**
 * Walks argv like getopt_long: `next()` returns the next option, or undefined at the end;
 * `optionalNext()` is get_optional_arg(); `setExtension()` merges a protocol's options.
 */
export class Getopt {
  private i = 0;
  private cluster: { readonly word: string; pos: number } | undefined;
  private ext: readonly LongOpt[] = [];

  constructor(private readonly argv: readonly string[]) {}

  setExtension(opts: readonly LongOpt[]): void {
    this.ext = opts;
  }

  /** get_optional_arg(): the next word when it does not look like an option. */
  optionalNext(): string | undefined {
    if (this.cluster !== undefined) return undefined;
    const w = this.argv[this.i];
    if (w === undefined || w.startsWith('-') || w.startsWith('!')) return undefined;
    this.i++;
    return w;
  }

  next(): Opt | undefined {
    if (this.cluster !== undefined) return this.shortOpt();
    for (;;) {
      const w = this.argv[this.i];
      if (w === undefined) return undefined;
      if (w === '--') return undefined;
      if (w.startsWith('--')) {
        this.i++;
        return this.longOpt(w);
      }
      if (w.startsWith('-') && w.length > 1) {
        this.cluster = { word: w, pos: 1 };
        this.i++;
        return this.shortOpt();
      }
      this.i++; // a non-option: getopt permutes it to the end; conntrack ignores it
    }
  }

  private shortOpt(): Opt {
    const cl = this.cluster;
    if (cl === undefined) throw new Error('no cluster');
    const c = cl.word[cl.pos] ?? '';
    cl.pos++;
    const last = cl.pos >= cl.word.length;
    const prev = this.argv[this.i - 2] ?? 'conntrack';
    const has = SHORT.get(c);
    if (has === undefined) {
      if (last) this.cluster = undefined;
      throw new ParamError(`unknown option \`${last ? cl.word : prev}'`);
    }
    if (has === 0) {
      if (last) this.cluster = undefined;
      return { val: c, text: last ? cl.word : prev };
    }
    this.cluster = undefined;
    if (!last) return { val: c, arg: cl.word.slice(cl.pos), text: cl.word };
    if (has === 2) return { val: c, text: cl.word };
    const arg = this.argv[this.i];
    if (arg === undefined) throw new ParamError(`option \`${cl.word}' requires an argument`);
    this.i++;
    return { val: c, arg, text: arg };
  }

  private longOpt(word: string): Opt {
    const eq = word.indexOf('=');
    const name = word.slice(2, eq < 0 ? undefined : eq);
    const all = [...ORIGINAL_OPTS, ...this.ext];
    const exact = all.find((o) => o.name === name);
    const matches = all.filter((o) => o.name.startsWith(name));
    const first = matches[0];
    const ambiguous = matches.some((o) => o.val !== first?.val || o.hasArg !== first.hasArg);
    const opt = exact ?? (first !== undefined && !ambiguous ? first : undefined);
    if (opt === undefined || name === '') throw new ParamError(`unknown option \`${word}'`);
    if (eq >= 0) {
      if (opt.hasArg === 0) throw new ParamError(`unknown option \`${word}'`);
      return { val: opt.val, arg: word.slice(eq + 1), text: word };
    }
    if (opt.hasArg !== 1) return { val: opt.val, text: word };
    const arg = this.argv[this.i];
    if (arg === undefined) throw new ParamError(`option \`${word}' requires an argument`);
    this.i++;
    return { val: opt.val, arg, text: arg };
  }
}

/** get_long_opt(): the first long name of an option value ("orig-src" for -s). */
export function longName(val: string): string {
  return ORIGINAL_OPTS.find((o) => o.val === val)?.name ?? 'unknown';
}
