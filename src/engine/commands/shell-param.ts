/**
 * bash's parameter expansion `${…}` with its operators (bash(1) "Parameter Expansion", bash
 * 5.2): `${X-w}` `${X:-w}` `${X=w}` `${X:=w}` `${X+w}` `${X:+w}` `${X?w}` `${X:?w}`, `${#X}`,
 * `${X:off}` `${X:off:len}`, `${X#p}` `${X##p}` `${X%p}` `${X%%p}`, `${X/p/s}` `${X//p/s}`
 * `${X/#p/s}` `${X/%p/s}` (`&` in s is the match: patsub_replacement is on in 5.2), and
 * `${X^p}` `${X^^p}` `${X,p}` `${X,,p}` `${X~p}` `${X~~p}`. Lengths, offsets and case count
 * characters, as bash does in the C.UTF-8 locale the lab's tools run in. Indirection (`${!X}`),
 * arrays and the `@` operators are refused with a lab note; anything else is bash's `bad
 * substitution`. Errors end the command line, status 1, as in an interactive bash.
 */
import { labNote } from '../model/lab-notes';
import { arithmetic, MAX_ARITH_DEPTH } from './shell-arith';
import { compilePattern, matchesWhole, removeMatch, replaceMatches } from './shell-glob';
import type { RemoveMode, ReplaceMode } from './shell-glob';
import { scanWord, type WordMode } from './shell-param-word';
import type { Expansion, Segment } from './shell-types';

/** What `${…}` needs from the shell running it. */
export interface ParamContext {
  /** A parameter's value (a variable, `?`, `#`, `0`…); undefined when it is unset. */
  lookup(name: string): string | undefined;
  assign(name: string, value: string): void;
  /** Expands a word read by scanWord (its unquoted text not literal: it splits, it globs). */
  expand(word: string): Expansion;
}

const NAME = /^(?:[A-Za-z_]\w*|\d+|[?#@*$!-])/;
const OPERATOR = /^(?::?[-=+?]|:|##?|%%?|\/[/#%]?|\^\^?|,,?|~~?)/;

const failure = (stderr: string): Expansion => ({ segments: [], stderr, failed: true });
const joined = (e: Expansion): string => e.segments.map((s) => s.text).join('');

/** One character in upper or lower case, or as it is when it has no single-character one (ß). */
function convert(ch: string, op: string): string {
  const upper = op.startsWith('^') || (op.startsWith('~') && ch === ch.toLowerCase());
  const other = upper ? ch.toUpperCase() : ch.toLowerCase();
  return Array.from(other).length === 1 ? other : ch;
}

/** The value of an arithmetic offset or length; bash's message (`X: 1/0: division by 0…`). */
function arithValue(name: string, text: string, ctx: ParamContext): number | Expansion {
  if (text.trim() === '') return 0;
  const r = arithmetic(text, (n) => ctx.lookup(n) ?? '');
  if ('error' in r) return failure(`bash: ${name}: ${r.error}\n`);
  if ('tooDeep' in r) return failure(labNote('shell.arithmetic-depth', { max: MAX_ARITH_DEPTH }));
  if ('unsupported' in r) return failure(labNote('shell.arithmetic'));
  return Number(r.value);
}

/** `${X:off}` and `${X:off:len}`, by character; bash's `substring expression < 0`. */
function substring(name: string, value: string, word: string, ctx: ParamContext): Expansion {
  const offsetWord = scanWord(word, 0, 'dquoted', { stop: ':', arithmetic: true });
  const offsetText = ctx.expand(offsetWord.word);
  if (offsetText.failed === true) return offsetText;
  let stderr = offsetText.stderr;
  let offset = arithValue(name, joined(offsetText), ctx);
  if (typeof offset !== 'number') return { ...offset, stderr: stderr + offset.stderr };
  // `${@:0}` is $0 and no positional parameters follow it in a terminal's shell.
  const chars = name === '@' || name === '*' ? ['bash'] : Array.from(value);
  const n = chars.length;
  if (offset < 0) offset += n;
  let end = n;
  if (offsetWord.end < word.length) {
    const lengthText = ctx.expand(scanWord(word, offsetWord.end + 1, 'dquoted').word);
    if (lengthText.failed === true) return { ...lengthText, stderr: stderr + lengthText.stderr };
    stderr += lengthText.stderr;
    const length = arithValue(name, joined(lengthText), ctx);
    if (typeof length !== 'number') return { ...length, stderr: stderr + length.stderr };
    end = length < 0 ? n + length : Math.min(n, offset + length);
    if (length < 0 && end < offset && offset >= 0 && offset <= n)
      return failure(`${stderr}bash: ${joined(lengthText)}: substring expression < 0\n`);
  }
  if (offset < 0 || offset > n || end < offset) return { segments: [{ text: '', quoted: false }], stderr }; // prettier-ignore
  return { segments: [{ text: chars.slice(offset, end).join(''), quoted: false }], stderr };
}

/** A pattern word expanded and compiled (its quoted parts match literally). */
function pattern(word: string, mode: WordMode, ctx: ParamContext, stop?: string) {
  const scanned = scanWord(word, 0, mode, stop === undefined ? {} : { stop });
  const e = ctx.expand(scanned.word);
  return { e, end: scanned.end, glob: compilePattern(e.segments), empty: joined(e) === '' };
}

/** The operators that take a pattern: removal, replacement and case. */
function withPattern(
  op: string,
  value: string,
  word: string,
  quoted: boolean,
  ctx: ParamContext,
): Expansion {
  const mode: WordMode = quoted ? 'pattern-dquoted' : 'unquoted';
  const result = (text: string, stderr: string): Expansion => ({ segments: [{ text, quoted: false }], stderr }); // prettier-ignore
  if (op.startsWith('#') || op.startsWith('%')) {
    const p = pattern(word, mode, ctx);
    if (p.e.failed === true) return p.e;
    return result(removeMatch(value, p.glob, op as RemoveMode), p.e.stderr);
  }
  if (op.startsWith('/')) {
    const p = pattern(word, mode, ctx, '/');
    if (p.e.failed === true) return p.e;
    const rep = p.end < word.length ? ctx.expand(scanWord(word, p.end + 1, mode).word) : undefined; // prettier-ignore
    if (rep?.failed === true) return { ...rep, stderr: p.e.stderr + rep.stderr };
    const stderr = p.e.stderr + (rep?.stderr ?? '');
    if (p.empty && (op === '/' || op === '//')) return result(value, stderr);
    // An unquoted `&` is the matched text; `\&` is an `&` (bash 5.2, patsub_replacement).
    const replacement = (matched: string) =>
      (rep?.segments ?? []).map((s: Segment) => s.quoted ? s.text : s.text.replace(/\\&|&/g, (t) => (t === '&' ? matched : '&'))).join(''); // prettier-ignore
    return result(replaceMatches(value, p.glob, op as ReplaceMode, replacement), stderr);
  }
  // Case: each character the pattern matches (by default any), only the first for ^ , ~.
  const p = word === '' ? undefined : pattern(word, mode, ctx);
  if (p?.e.failed === true) return p.e;
  const chars = Array.from(value);
  const upTo = op.length === 2 ? chars.length : Math.min(1, chars.length);
  for (let k = 0; k < upTo; k++)
    if (p === undefined || matchesWhole(p.glob, chars[k]!)) chars[k] = convert(chars[k]!, op);
  return result(chars.join(''), p?.e.stderr ?? '');
}

/** `${X-w}` and its kin: the value, the word, an assignment or an error. */
function withWord(
  name: string,
  op: string,
  word: string,
  quoted: boolean,
  ctx: ParamContext,
): Expansion {
  const value = ctx.lookup(name);
  const missing = op.startsWith(':') ? value === undefined || value === '' : value === undefined;
  const kind = op.charAt(op.length - 1);
  const useWord = kind === '+' ? !missing : missing;
  if (!useWord) return { segments: [{ text: kind === '+' ? '' : value ?? '', quoted: false }], stderr: '' }; // prettier-ignore
  const e = ctx.expand(scanWord(word, 0, quoted ? 'dquoted' : 'unquoted', { tilde: true }).word);
  if (e.failed === true || kind === '-' || kind === '+') return e;
  if (kind === '?') {
    const message = joined(e) || (op.startsWith(':') ? 'parameter null or not set' : 'parameter not set'); // prettier-ignore
    return failure(`${e.stderr}bash: ${name}: ${message}\n`);
  }
  if (!/^[A-Za-z_]/.test(name)) return failure(`${e.stderr}bash: $${name}: cannot assign in this way\n`); // prettier-ignore
  // `=`: the word, quotes removed and not split, is assigned; the value then splits as `$X` does.
  ctx.assign(name, joined(e));
  return { segments: [{ text: joined(e), quoted: false }], stderr: e.stderr };
}

function unquotedExpansion(body: string, quoted: boolean, ctx: ParamContext): Expansion {
  const bad = (): Expansion => ({ segments: [], stderr: '', failed: true, badSubstitution: true });
  const note = () => failure(labNote('shell.parameter', { form: `\${${body}}` }));
  // `${#X}` is X's length in characters; `${#-d}` and `${#:-d}` are operators on $# itself.
  const lengthOf = /^#([A-Za-z_]\w*|\d+|[?#@*])$/.exec(body)?.[1];
  if (lengthOf === '@' || lengthOf === '*') return { segments: [{ text: ctx.lookup('#') ?? '0', quoted: false }], stderr: '' }; // prettier-ignore
  if (lengthOf !== undefined) {
    const length = Array.from(ctx.lookup(lengthOf) ?? '').length;
    return { segments: [{ text: String(length), quoted: false }], stderr: '' };
  }
  if (/^#[^:=+?-]/.test(body)) return /^#[A-Za-z_]\w*\[/.test(body) ? note() : bad();
  const name = NAME.exec(body)?.[0];
  if (name === undefined) return bad();
  // $$, $! and $- (process ids, shell flags) are not modelled.
  if (name === '$' || name === '!' || name === '-') return note();
  const rest = body.slice(name.length);
  if (rest === '') return { segments: [{ text: ctx.lookup(name) ?? '', quoted: false }], stderr: '' }; // prettier-ignore
  if (rest.startsWith('[') || rest.startsWith('@')) return /^[A-Za-z_@*]/.test(name) ? note() : bad(); // prettier-ignore
  const op = OPERATOR.exec(rest)?.[0];
  if (op === undefined) return bad();
  const word = rest.slice(op.length);
  if (op === ':') return word === '' ? bad() : substring(name, ctx.lookup(name) ?? '', word, ctx);
  if (/^:?[-=+?]$/.test(op)) return withWord(name, op, word, quoted, ctx);
  return withPattern(op, ctx.lookup(name) ?? '', word, quoted, ctx);
}

/**
 * The pieces `${BODY}` expands to; `quoted`: it was inside double quotes (then nothing of it
 * is split into fields).
 */
export function expandParameter(body: string, quoted: boolean, ctx: ParamContext): Expansion {
  const e = unquotedExpansion(body, quoted, ctx);
  if (!quoted || e.failed === true) return e;
  // Inside double quotes even nothing is a field: "${U:-}" is one empty argument.
  const segments = [{ text: '', quoted: true }, ...e.segments.map((s) => ({ text: s.text, quoted: true }))]; // prettier-ignore
  return { segments, stderr: e.stderr };
}
