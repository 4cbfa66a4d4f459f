/**
 * bash's pattern matching (bash(1) "Pattern Matching") for the parameter expansions that take a
 * pattern: `${X#pat}`, `${X%pat}`, `${X/pat/rep}` and `${X^pat}`. `*`, `?`, `[…]` (ranges, `!`
 * or `^` to negate, `[:class:]`) and `\`; a quoted part of the pattern matches itself. extglob
 * is off, as in a bash started without rc files. Strings are matched by character (code point),
 * as bash does in a UTF-8 locale.
 */

/** One piece of a pattern as the word gave it: quoted pieces have no special characters. */
export interface PatternPart {
  readonly text: string;
  readonly quoted: boolean;
}

interface PatternChar {
  readonly ch: string;
  readonly quoted: boolean;
}

const CLASSES: Readonly<Record<string, string>> = {
  alpha: '\\p{Alphabetic}',
  digit: '0-9',
  alnum: '\\p{Alphabetic}0-9',
  upper: '\\p{Uppercase}',
  lower: '\\p{Lowercase}',
  space: '\\s',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  cntrl: '\\p{Cc}',
  print: ' \\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
  graph: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
  word: '\\w',
};

const escapeChar = (ch: string): string => ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
/** Inside a character class only these are special. */
const escapeInClass = (ch: string): string => ch.replace(/[\\\][^-]/g, '\\$&');

/**
 * The regular expression body of a bracket expression starting at chars[at] (`[`), and the index
 * after it; undefined when there is no closing `]` (then `[` is an ordinary character).
 */
function bracket(chars: readonly PatternChar[], at: number): [string, number] | undefined {
  let i = at + 1;
  let negate = false;
  if (!chars[i]?.quoted && (chars[i]?.ch === '!' || chars[i]?.ch === '^')) {
    negate = true;
    i++;
  }
  let body = '';
  for (let first = true; i < chars.length; first = false) {
    const { ch, quoted } = chars[i]!;
    if (ch === ']' && !quoted && !first) return [`[${negate ? '^' : ''}${body}]`, i + 1];
    if (ch === '[' && !quoted && chars[i + 1]?.ch === ':') {
      const rest = chars
        .slice(i + 2)
        .map((c) => c.ch)
        .join('');
      const m = /^([a-z]+):\]/.exec(rest);
      if (m !== null && CLASSES[m[1]!] !== undefined) {
        body += CLASSES[m[1]!];
        i += 2 + m[0].length;
        continue;
      }
    }
    let c = ch;
    if (ch === '\\' && !quoted && i + 1 < chars.length) c = chars[++i]!.ch;
    const dash = chars[i + 1];
    const end = chars[i + 2];
    if (dash?.ch === '-' && !dash.quoted && end !== undefined && !(end.ch === ']' && !end.quoted)) {
      body += `${escapeInClass(c)}-${escapeInClass(end.ch)}`;
      i += 3;
    } else {
      body += escapeInClass(c);
      i++;
    }
  }
  return undefined;
}

/**
 * A pattern as regular expression sources: `*` greedy or lazy. With only `*`, `?`, `[…]` and
 * single characters (no alternation), the greedy search's first match at a position is the
 * longest there and the lazy one's the shortest, which is what bash's pattern operators take.
 */
export interface Glob {
  readonly greedy: string;
  readonly lazy: string;
}

/** The pattern of these parts (a range out of order, `[z-a]`, matches nothing, as in bash). */
export function compilePattern(parts: readonly PatternPart[]): Glob {
  const chars: PatternChar[] = [];
  for (const p of parts) for (const ch of p.text) chars.push({ ch, quoted: p.quoted });
  let greedy = '';
  let lazy = '';
  const add = (piece: string, lazyPiece = piece) => {
    greedy += piece;
    lazy += lazyPiece;
  };
  for (let i = 0; i < chars.length;) {
    const { ch, quoted } = chars[i]!;
    if (quoted) add(escapeChar(ch));
    else if (ch === '*') add('[\\s\\S]*', '[\\s\\S]*?');
    else if (ch === '?') add('[\\s\\S]');
    else if (ch === '\\' && i + 1 < chars.length) add(escapeChar(chars[++i]!.ch));
    else if (ch === '[') {
      const b = bracket(chars, i);
      if (b !== undefined) {
        add(b[0]);
        i = b[1];
        continue;
      }
      add('\\[');
    } else add(escapeChar(ch));
    i++;
  }
  try {
    new RegExp(greedy, 'u');
    return { greedy, lazy };
  } catch {
    return { greedy: '(?!)', lazy: '(?!)' };
  }
}

const regexp = (source: string, flags = 'u') => new RegExp(source, flags);

/** Whether the pattern matches all of `text` (`${X^^[ab]}` tests each character). */
export function matchesWhole(glob: Glob, text: string): boolean {
  return regexp(`^(?:${glob.greedy})$`).test(text);
}

export type RemoveMode = '#' | '##' | '%' | '%%';

/** `${X#pat}` and its kin: the value without the shortest or longest matching prefix or suffix. */
export function removeMatch(value: string, glob: Glob, mode: RemoveMode): string {
  if (mode === '#' || mode === '##') {
    const m = regexp(`^(?:${mode === '#' ? glob.lazy : glob.greedy})`).exec(value);
    return m === null ? value : value.slice(m[0].length);
  }
  // The suffix starts where the text before it is longest (`%`) or shortest (`%%`).
  const before = mode === '%' ? '[\\s\\S]*' : '[\\s\\S]*?';
  const m = regexp(`^(${before})(?:${glob.greedy})$`).exec(value);
  return m === null ? value : value.slice(0, m[1]!.length);
}

export type ReplaceMode = '/' | '//' | '/#' | '/%';

/**
 * `${X/pat/rep}` and its kin (bash subst.c pat_subst): the first, every, a leading or a trailing
 * longest match replaced by `replacement(matched)`. An empty match is replaced and the character
 * after it kept, as bash does.
 */
export function replaceMatches(
  value: string,
  glob: Glob,
  mode: ReplaceMode,
  replacement: (matched: string) => string,
): string {
  if (mode === '/#') {
    const m = regexp(`^(?:${glob.greedy})`).exec(value);
    return m === null ? value : replacement(m[0]) + value.slice(m[0].length);
  }
  if (mode === '/%') {
    const m = regexp(`^([\\s\\S]*?)(?:${glob.greedy})$`).exec(value);
    return m === null ? value : m[1]! + replacement(value.slice(m[1]!.length));
  }
  // An empty value is replaced when the pattern matches it (`${E//*/y}` is y).
  if (value === '') return matchesWhole(glob, '') ? replacement('') : value;
  const search = regexp(glob.greedy, 'gu');
  let out = '';
  let from = 0;
  while (from < value.length) {
    search.lastIndex = from;
    const m = search.exec(value);
    if (m === null) break;
    out += value.slice(from, m.index) + replacement(m[0]);
    from = m.index + m[0].length;
    if (m[0] === '') {
      const ch = String.fromCodePoint(value.codePointAt(from)!);
      out += ch;
      from += ch.length;
    }
    if (mode === '/') break;
  }
  return out + value.slice(from);
}
