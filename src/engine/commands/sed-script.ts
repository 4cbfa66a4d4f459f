/**
 * GNU sed 4.9's scripts, parsed (compile.c): commands separated by `;` or newlines, each with
 * up to two addresses (a line number, `$`, /regex/ with an optional `I`) and `!`; the commands
 * `s` (flags g, p, N, i/I), `y`, `p`, `d`, `q`, `Q`, `=`, `{ … }` and `#` comments. GNU's
 * messages for the errors a learner meets (`-e expression #1, char 5: unterminated `s'
 * command`) are its own; anything else the lab does not model (a, i, c, n, N, hold space,
 * branches, files…) makes the script unmodelled.
 */
import { sedRegex } from './sed-regex';

export type Address = { readonly k: 'line'; readonly n: number } | { readonly k: 'last' } | { readonly k: 're'; readonly re: RegExp | 'last' }; // prettier-ignore

export type SedCommand = {
  readonly a1: Address | undefined;
  readonly a2: Address | undefined;
  readonly not: boolean;
  /** Range state while running (a range spans lines). */
  active: boolean;
} & (
  | { readonly c: 's'; readonly re: RegExp | 'last'; readonly repl: string; readonly global: boolean; readonly nth: number; readonly print: boolean; readonly icase: boolean } // prettier-ignore
  | { readonly c: 'y'; readonly from: string; readonly to: string }
  | { readonly c: 'p' | 'd' | '=' | 'q' | 'Q' }
  | { readonly c: '{'; readonly body: SedCommand[] }
);

/** A script error: GNU's message, or that the lab does not model what the script uses. */
export class SedError extends Error {
  constructor(
    message: string,
    readonly unmodelled = false,
  ) {
    super(message);
  }
}

class Reader {
  i = 0;
  constructor(
    readonly s: string,
    readonly expr: number,
    readonly extended: boolean,
  ) {}
  fail(what: string, at = this.i): never {
    throw new SedError(`-e expression #${this.expr}, char ${at}: ${what}`);
  }
  unmodelled(): never {
    throw new SedError('', true);
  }
  peek(): string | undefined {
    return this.s[this.i];
  }
  blanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
  }
  /** Text up to an unescaped `delim`; `\delim` is the delimiter itself, `\n` a newline. */
  delimited(delim: string, regex: boolean): string | undefined {
    let out = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i++]!;
      if (c === delim) return out;
      if (c === '\n' && !regex) return undefined;
      if (c === '\\') {
        const n = this.s[this.i++];
        if (n === undefined) return undefined;
        if (n === delim) out += regex && delim !== '/' && '.*[]^$\\'.includes(delim) ? `\\${n}` : n;
        else if (n === 'n' && regex) out += '\\n';
        else out += `\\${n}`;
      } else out += c;
    }
    return undefined;
  }
  regex(source: string, icase: boolean): RegExp | 'last' {
    if (source === '') return 'last';
    return sedRegex(source, this.extended, icase ? 'i' : '') ?? this.unmodelled();
  }
}

function address(r: Reader): Address | undefined {
  const c = r.peek();
  if (c !== undefined && /[0-9]/.test(c)) {
    const m = /^\d+/.exec(r.s.slice(r.i))!;
    r.i += m[0].length;
    if (r.peek() === '~') r.unmodelled();
    return { k: 'line', n: Number(m[0]) };
  }
  if (c === '$') {
    r.i++;
    return { k: 'last' };
  }
  if (c === '/' || c === '\\') {
    r.i++;
    const delim = c === '/' ? '/' : r.s[r.i++];
    if (delim === undefined) r.fail('unterminated address regex');
    const source = r.delimited(delim, true);
    if (source === undefined) r.fail('unterminated address regex');
    const icase = r.peek() === 'I';
    if (icase) r.i++;
    if (r.peek() === 'M') r.unmodelled();
    return { k: 're', re: r.regex(source, icase) };
  }
  return undefined;
}

/** After a command: blanks, then its end (`;`, newline, `}`, `#` or the end of the script). */
function commandEnd(r: Reader): void {
  r.blanks();
  const c = r.peek();
  if (c === undefined || c === ';' || c === '\n' || c === '}' || c === '#') return;
  r.fail('extra characters after command', r.i + 1);
}

function substitute(
  r: Reader,
): Omit<Extract<SedCommand, { c: 's' }>, 'a1' | 'a2' | 'not' | 'active'> {
  const delim = r.s[r.i++];
  if (delim === undefined || delim === '\n' || delim === '\\') r.fail('unterminated `s\' command', r.i); // prettier-ignore
  const source = r.delimited(delim, true);
  if (source === undefined) r.fail("unterminated `s' command", r.s.length);
  const repl = r.delimited(delim, false);
  if (repl === undefined) r.fail("unterminated `s' command", r.s.length);
  if (/\\[lLuUE]/.test(repl)) r.unmodelled();
  let global = false;
  let print = false;
  let icase = false;
  let nth = 1;
  for (;;) {
    const c = r.peek();
    if (c === 'g') global = true;
    else if (c === 'p') print = true;
    else if (c === 'i' || c === 'I') icase = true;
    else if (c !== undefined && /[1-9]/.test(c)) {
      const m = /^\d+/.exec(r.s.slice(r.i))!;
      nth = Number(m[0]);
      r.i += m[0].length - 1;
    } else if (c === 'e' || c === 'm' || c === 'M' || c === 'w') r.unmodelled();
    else if (
      c === undefined ||
      c === ';' ||
      c === '\n' ||
      c === '}' ||
      c === '#' ||
      c === ' ' ||
      c === '\t'
    )
      break; // prettier-ignore
    else r.fail("unknown option to `s'", r.i + 1);
    r.i++;
  }
  const re = r.regex(source, icase);
  // A \N beyond the regex's groups (an empty regex reuses the last one: not checked here).
  const groups = re === 'last' ? 9 : (new RegExp(`${re.source}|`).exec('')?.length ?? 1) - 1;
  const refs = [...repl.matchAll(/\\(\\|[1-9])/g)].map((m) => Number(m[1]) || 0);
  const over = refs.find((n) => n > groups);
  if (over !== undefined) r.fail(`invalid reference \\${over} on \`s' command's RHS`, r.i);
  return { c: 's', re, repl, global, nth, print, icase };
}

function commands(r: Reader, nested: boolean): SedCommand[] {
  const out: SedCommand[] = [];
  for (;;) {
    while (r.peek() !== undefined && /[ \t\n;]/.test(r.peek()!)) r.i++;
    const first = r.peek();
    if (first === undefined) {
      if (nested) r.fail("unmatched `{'", 0);
      return out;
    }
    if (first === '#') {
      while (r.peek() !== undefined && r.peek() !== '\n') r.i++;
      continue;
    }
    if (first === '}') {
      if (!nested) r.fail("unexpected `}'", r.i + 1);
      r.i++;
      return out;
    }
    const a1 = address(r);
    let a2: Address | undefined;
    if (a1 !== undefined && r.peek() === ',') {
      r.i++;
      r.blanks();
      if (r.peek() === '+' || r.peek() === '~') r.unmodelled();
      a2 = address(r);
      if (a2 === undefined) r.fail("unexpected `,'", r.i);
    }
    r.blanks();
    let not = false;
    while (r.peek() === '!') {
      not = true;
      r.i++;
      r.blanks();
    }
    const c = r.s[r.i++];
    const base = { a1, a2, not, active: false };
    if (c === undefined) r.fail('missing command', r.i);
    if (a1?.k === 'line' && a1.n === 0) r.fail('invalid usage of line address 0', r.i);
    if (c === 's') out.push({ ...base, ...substitute(r) });
    else if (c === 'y') {
      const delim = r.s[r.i++];
      const from = delim === undefined ? undefined : r.delimited(delim, false);
      const to = delim === undefined || from === undefined ? undefined : r.delimited(delim, false);
      if (from === undefined || to === undefined) r.fail("unterminated `y' command", r.s.length);
      if (from.includes('\\') || to.includes('\\')) r.unmodelled();
      if (from.length !== to.length) r.fail("strings for `y' command are different lengths", r.i);
      out.push({ ...base, c: 'y', from, to });
    } else if (c === '{') {
      out.push({ ...base, c: '{', body: commands(r, true) });
      continue;
    } else if (c === 'p' || c === 'd' || c === '=' || c === 'q' || c === 'Q') {
      if ((c === 'q' || c === 'Q') && a2 !== undefined) r.fail('command only uses one address', r.i); // prettier-ignore
      r.blanks();
      if ((c === 'q' || c === 'Q') && r.peek() !== undefined && /[0-9]/.test(r.peek()!)) r.unmodelled(); // prettier-ignore
      out.push({ ...base, c });
    } else if ('aicnNlhHgGxbtTrRwWvzeFD:'.includes(c)) r.unmodelled();
    else r.fail(`unknown command: \`${c}'`, r.i);
    commandEnd(r);
  }
}

/** The script of the -e expressions (or the one script argument), parsed. */
export function parseSed(expressions: readonly string[], extended: boolean): SedCommand[] {
  return expressions.flatMap((s, k) => commands(new Reader(s, k + 1, extended), false));
}
