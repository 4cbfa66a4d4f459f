/**
 * Runs a parsed awk program (awk-parse.ts) over input lines as mawk 1.3.4 does: values are
 * numbers, strings, or "strnums" (fields, and variables never set) that compare as numbers
 * when both sides look numeric and as strings otherwise; numbers become text as awk-format.ts
 * says; FS (a blank or one character), OFS and ORS may be set; NR and NF count as mawk counts.
 */
import { exponential, fixed, general, numberText } from './awk-format';
import { ere } from './awk-lex';
import type { Expr, Item, Stmt } from './awk-parse';
import { formatInteger, type IntSpec } from './printf';

/** A field, or a variable never set: text that may also be a number. */
class StrNum {
  constructor(
    readonly s: string,
    readonly unset = false,
  ) {}
}

type Value = number | string | StrNum;

const NUMERIC = /^[ \t\n]*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?[ \t\n]*$/;
const PREFIX = /^[ \t\n\v\f\r]*([-+]?)(0[xX][0-9A-Fa-f]+|inf(?:inity)?|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/i; // prettier-ignore

/** strtod(): the number at the start of the text, 0 when there is none. */
function toNumber(v: Value): number {
  if (typeof v === 'number') return v;
  const m = PREFIX.exec(typeof v === 'string' ? v : v.s);
  if (m === null) return 0;
  const body = m[2]!.toLowerCase();
  const n = body.startsWith('0x') ? parseInt(body, 16) : body.startsWith('inf') ? Infinity : body === 'nan' ? NaN : Number(body); // prettier-ignore
  return m[1] === '-' ? -n : n;
}

function toText(v: Value): string {
  if (typeof v === 'number') return numberText(v);
  return typeof v === 'string' ? v : v.s;
}

const looksNumeric = (v: Value): boolean =>
  typeof v === 'number' || (v instanceof StrNum && (v.unset || NUMERIC.test(v.s)));

const truthy = (v: Value): boolean =>
  typeof v === 'number' ? v !== 0 : v instanceof StrNum && NUMERIC.test(v.s) ? toNumber(v) !== 0 : toText(v) !== ''; // prettier-ignore

class Next {}

export interface AwkRun {
  readonly stdout: string;
  /** A run-time error (mawk's words after `PROG: run time error: `), output kept up to it. */
  readonly error?: string;
}

/** Input: each file's lines, under the name FILENAME gives (`-` for standard input). */
export interface AwkSource {
  readonly file: string;
  readonly lines: readonly string[];
}

class RuntimeError extends Error {}

export function runAwk(
  items: readonly Item[],
  sources: readonly AwkSource[],
  fs: string,
  assigned: readonly (readonly [string, string])[] = [],
): AwkRun {
  const vars = new Map<string, Value>([
    ['FS', fs],
    ['OFS', ' '],
    ['ORS', '\n'],
    ['RS', '\n'],
    ['CONVFMT', '%.6g'],
    ['OFMT', '%.6g'],
    ['SUBSEP', '\x1c'],
  ]);
  // -v values are read as input is: text that may be a number.
  for (const [k, v] of assigned) vars.set(k, new StrNum(v));
  let out = '';
  let record = '';
  let fields: string[] = [];
  let nr = 0;
  let fnr = 0;
  let filename = '';

  const split = (line: string): string[] => {
    const sep = toText(vars.get('FS') ?? ' ');
    if (sep === ' ') return line.split(/[ \t\n]+/).filter((f) => f !== '');
    if (line === '') return [];
    return sep.length === 1 ? line.split(sep) : line.split(ere(sep));
  };
  const field = (n: number): Value => (n === 0 ? new StrNum(record) : new StrNum(fields[n - 1] ?? '')); // prettier-ignore
  const getVar = (name: string): Value => {
    if (name === 'NR') return nr;
    if (name === 'NF') return fields.length;
    if (name === 'FNR') return fnr;
    if (name === 'FILENAME') return filename;
    return vars.get(name) ?? new StrNum('', true);
  };
  const matches = (text: Value, re: Expr): boolean => {
    const regex = re.k === 're' ? re.re : ere(toText(value(re)));
    return regex.test(toText(text));
  };

  function value(e: Expr): Value {
    switch (e.k) {
      case 'num':
      case 'str':
        return e.v;
      case 're':
        return matches(new StrNum(record), e) ? 1 : 0;
      case 'field': {
        const n = Math.trunc(toNumber(value(e.e)));
        if (n < 0) throw new RuntimeError(`negative field index $${n}`);
        return field(n);
      }
      case 'var':
        return getVar(e.name);
      case 'neg':
        return -toNumber(value(e.e));
      case 'plus':
        return toNumber(value(e.e));
      case 'not':
        return truthy(value(e.e)) ? 0 : 1;
      case 'bin':
        return arithmetic(e.op, toNumber(value(e.l)), toNumber(value(e.r)));
      case 'cmp':
        return compare(e.op, value(e.l), value(e.r)) ? 1 : 0;
      case 'match':
        return matches(value(e.l), e.r) !== e.neg ? 1 : 0;
      case 'and':
        return truthy(value(e.l)) && truthy(value(e.r)) ? 1 : 0;
      case 'or':
        return truthy(value(e.l)) || truthy(value(e.r)) ? 1 : 0;
      case 'concat':
        return toText(value(e.l)) + toText(value(e.r));
      case 'cond':
        return truthy(value(e.c)) ? value(e.t) : value(e.f);
      case 'length':
        return toText(e.e === undefined ? new StrNum(record) : value(e.e)).length;
      case 'assign': {
        const v = value(e.e);
        const next = e.op === '=' ? (v instanceof StrNum ? new StrNum(v.s) : v) : arithmetic(e.op.slice(0, 1), toNumber(getVar(e.name)), toNumber(v)); // prettier-ignore
        vars.set(e.name, next);
        return next;
      }
      case 'incdec': {
        const old = toNumber(getVar(e.name));
        const now = e.op === '++' ? old + 1 : old - 1;
        vars.set(e.name, now);
        return e.prefix ? now : old;
      }
    }
  }

  function exec(s: Stmt): void {
    switch (s.k) {
      case 'print': {
        const text = s.args.length === 0 ? record : s.args.map((a) => toText(value(a))).join(toText(getVar('OFS'))); // prettier-ignore
        out += text + toText(getVar('ORS'));
        return;
      }
      case 'printf': {
        const [fmt, ...args] = s.args.map(value);
        out += awkPrintf(toText(fmt!), args);
        return;
      }
      case 'expr':
        value(s.e);
        return;
      case 'if':
        if (truthy(value(s.c))) exec(s.t);
        else if (s.f !== undefined) exec(s.f);
        return;
      case 'next':
        throw new Next();
      case 'block':
        for (const b of s.body) exec(b);
    }
  }

  const act = (item: Item) => (item.action === undefined ? (out += record + toText(getVar('ORS'))) : exec(item.action)); // prettier-ignore
  const main = items.filter((i) => i.pattern !== 'BEGIN' && i.pattern !== 'END');
  const ends = items.filter((i) => i.pattern === 'END');
  try {
    for (const item of items) if (item.pattern === 'BEGIN') act(item);
    // Without main items or END, mawk reads no input.
    if (main.length > 0 || ends.length > 0) {
      for (const source of sources) {
        filename = source.file;
        fnr = 0;
        for (const line of source.lines) {
          nr++;
          fnr++;
          record = line;
          fields = split(line);
          try {
            for (const item of main) {
              const p = item.pattern as Expr | undefined;
              if (p === undefined || truthy(value(p))) act(item);
            }
          } catch (err) {
            if (!(err instanceof Next)) throw err;
          }
        }
      }
    }
    for (const item of ends) act(item);
  } catch (err) {
    if (!(err instanceof RuntimeError)) throw err;
    // mawk's second line names where it was.
    const at = `\tFILENAME="${filename}" FNR=${fnr} NR=${nr}`;
    return { stdout: out, error: `${err.message}\n${at}` };
  }
  return { stdout: out };
}

function arithmetic(op: string, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    default:
      return a ** b;
  }
}

function compare(op: string, a: Value, b: Value): boolean {
  let c: number;
  if (looksNumeric(a) && looksNumeric(b)) {
    const x = toNumber(a);
    const y = toNumber(b);
    c = x < y ? -1 : x > y ? 1 : 0;
  } else {
    const x = toText(a);
    const y = toText(b);
    c = x < y ? -1 : x > y ? 1 : 0;
  }
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '==' ? c === 0 : op === '!=' ? c !== 0 : op === '>=' ? c >= 0 : c > 0; // prettier-ignore
}

/** awk's printf: C's conversions over awk values (%d of 3.9 is 3; %c of 65 is "A"). */
function awkPrintf(format: string, args: readonly Value[]): string {
  let next = 0;
  const take = (): Value => args[next++] ?? new StrNum('', true);
  return format.replace(
    /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([a-zA-Z%])/g,
    (m, flags: string, w?: string, p?: string, conv = '') => {
      // prettier-ignore
      if (conv === '%') return '%';
      const width =
        w === undefined ? undefined : w === '*' ? Math.trunc(toNumber(take())) : Number(w);
      const precision = p === undefined ? undefined : p === '*' ? Math.trunc(toNumber(take())) : Number(p || '0'); // prettier-ignore
      const spec: IntSpec = { flags, width, precision };
      const v = take();
      const padded = (body: string, zero: boolean) => formatInteger.pad(body, spec, zero);
      if (conv === 's') return padded(precision === undefined ? toText(v) : toText(v).slice(0, precision), false); // prettier-ignore
      if (conv === 'c') return padded(typeof v === 'number' ? String.fromCharCode(v) : toText(v).charAt(0), false); // prettier-ignore
      if ('dioxXu'.includes(conv)) {
        const n = toNumber(v);
        const int = Number.isFinite(n)
          ? BigInt(Math.trunc(n))
          : n > 0
            ? (1n << 63n) - 1n
            : -(1n << 63n);
        return formatInteger.integer(conv === 'i' ? 'd' : conv, int, spec);
      }
      const x = toNumber(v);
      const prec = precision ?? 6;
      const sign = (t: string) => (x >= 0 && !t.startsWith('-') ? (flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') : '') + t; // prettier-ignore
      if (conv === 'f' || conv === 'F') return padded(sign(fixed(x, prec)), Number.isFinite(x));
      if (conv === 'e' || conv === 'E') return padded(sign(exponential(x, prec, conv === 'E')), Number.isFinite(x)); // prettier-ignore
      if (conv === 'g' || conv === 'G') return padded(sign(general(x, prec, conv === 'G')), Number.isFinite(x)); // prettier-ignore
      return m;
    },
  );
}
