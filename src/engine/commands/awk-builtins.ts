/**
 * mawk 1.3.4's built-in functions (bi_funct.c, tag t20200120): length, substr (its own
 * arithmetic for a start below 1: substr("hello", -1, 3) is "hell"), index, split, sub and
 * gsub (an empty match is not taken right after a match: gsub(/l*∕, "X") of "hello" gives
 * "XhXeXoX"), match (RSTART, RLENGTH), sprintf, tolower/toupper (ASCII letters only, as in
 * the C locale), int and the maths functions.
 */
import type { Expr } from './awk-ast';
import type { Evaluator } from './awk-eval';
import { ere, longestMatch, splitByRegex } from './awk-regex';
import { StrNum, toInt, toNumber, type Value } from './awk-value';

/** The regex an argument stands for: a /literal/ as it is, anything else as text. */
function regexOf(ev: Evaluator, e: Expr): RegExp {
  return e.k === 're' ? ere(e.src) : ere(ev.text(ev.value(e)));
}

/** sub/gsub's replacement for one match: `&` is the match, `\&` a literal ampersand. */
function replacement(repl: string, matched: string): string {
  return repl.replace(/\\\\|\\&|&/g, (m) => (m === '&' ? matched : m === '\\&' ? '&' : '\\'));
}

function substitute(ev: Evaluator, args: readonly Expr[], global: boolean): number {
  const re = regexOf(ev, args[0]!);
  const repl = ev.text(ev.value(args[1]!));
  const target = args[2] ?? { k: 'field', e: { k: 'num', v: 0 } };
  if (target.k !== 'var' && target.k !== 'index' && target.k !== 'field') return 0;
  const text = ev.text(ev.read(target));
  let out = '';
  let count = 0;
  let afterMatch = false;
  let i = 0;
  while (i <= text.length) {
    const m = longestMatch(re, text, i);
    if (m === undefined) break;
    const adjacent = m.index === i;
    out += text.slice(i, m.index);
    i = m.index;
    if (m.text === '' && afterMatch && adjacent) {
      // No empty match right after a match: the character is kept and the search goes on.
      if (i < text.length) out += text[i];
      i++;
      afterMatch = false;
      continue;
    }
    out += replacement(repl, m.text);
    count++;
    if (m.text === '') {
      if (i < text.length) out += text[i];
      i++;
    } else i += m.text.length;
    afterMatch = m.text !== '';
    if (!global) break;
  }
  out += text.slice(i);
  if (count > 0) ev.assign(target, out);
  return count;
}

function substr(s: string, start: number, length: number | undefined): string {
  const len = s.length;
  if (len === 0) return '';
  // C ints, overflow included: substr(s, -1e10, 1e10) is "" in mawk.
  let n = length === undefined ? len : toInt(length);
  let i = (toInt(start) - 1) | 0;
  if (i > len) n = 0;
  if (i < 0) {
    n = (n - ((i + 1) | 0)) | 0;
    i = 0;
  }
  if (n > len - i) n = len - i;
  return n <= 0 ? '' : s.slice(i, i + n);
}

function split(ev: Evaluator, args: readonly Expr[]): number {
  const text = ev.text(ev.value(args[0]!));
  const name = (args[1] as { name: string }).name;
  const sep = args[2];
  let pieces: string[];
  if (sep === undefined) pieces = ev.splitWith(text, ev.textOf('FS'));
  else if (sep.k === 're') pieces = splitByRegex(text, ere(sep.src));
  else pieces = ev.splitWith(text, ev.text(ev.value(sep)));
  ev.array(name).load(pieces.map((p) => new StrNum(p)));
  return pieces.length;
}

const ascii = (s: string, upper: boolean) =>
  s.replace(upper ? /[a-z]+/g : /[A-Z]+/g, (m) => (upper ? m.toUpperCase() : m.toLowerCase()));

export function callBuiltin(ev: Evaluator, name: string, args: readonly Expr[]): Value {
  const num = (i: number) => toNumber(ev.value(args[i]!));
  const str = (i: number) => ev.text(ev.value(args[i]!));
  switch (name) {
    case 'length': {
      if (args.length === 0) return ev.record.length;
      const a = args[0]!;
      const held = a.k === 'var' ? ev.heldArray(a.name) : undefined;
      if (held !== undefined) return held.size;
      return str(0).length;
    }
    case 'substr':
      return substr(str(0), num(1), args.length > 2 ? num(2) : undefined);
    case 'index':
      return str(1) === '' ? 0 : str(0).indexOf(str(1)) + 1;
    case 'split':
      return split(ev, args);
    case 'sub':
    case 'gsub':
      return substitute(ev, args, name === 'gsub');
    case 'match': {
      const text = str(0);
      const m = longestMatch(regexOf(ev, args[1]!), text);
      ev.set('RSTART', m === undefined ? 0 : m.index + 1);
      ev.set('RLENGTH', m === undefined ? -1 : m.text.length);
      return m === undefined ? 0 : m.index + 1;
    }
    case 'sprintf':
      return ev.sprintf(
        str(0),
        args.slice(1).map((a) => ev.value(a)),
      );
    case 'tolower':
    case 'toupper':
      return ascii(str(0), name === 'toupper');
    case 'int':
      return Math.trunc(num(0));
    case 'sqrt':
      return Math.sqrt(num(0));
    case 'exp':
      return Math.exp(num(0));
    case 'log':
      return Math.log(num(0));
    case 'sin':
      return Math.sin(num(0));
    case 'cos':
      return Math.cos(num(0));
    default:
      return Math.atan2(num(0), num(1));
  }
}
