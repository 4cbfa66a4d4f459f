/**
 * mawk 1.3.4's regexes (POSIX ERE, its own matcher) as JavaScript ones: `.` matches a newline
 * too, `{` and `}` are ordinary characters (this mawk has no `{n,m}` repetition: `/a{2}/` finds
 * the text "a{2}"), and bracket classes such as [:digit:] are spelled out as in the C locale.
 */
import { Unsupported } from './awk-lex';
import { POSIX_CLASSES } from './posix-classes';

const cache = new Map<string, RegExp>();

/** Rewrites one ERE; throws Unsupported for a class name or construct the lab cannot read. */
function translate(source: string): string {
  let js = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      js += source.slice(i, i + 2);
      i++;
    } else if (c === '{' || c === '}') js += `\\${c}`;
    else if (c === '[') {
      // A bracket expression: `]` first is a member; [:class:] is spelled out.
      let j = i + 1;
      let body = '';
      if (source[j] === '^') body += source[j++];
      if (source[j] === ']') body += `\\${source[j++]}`;
      for (; j < source.length && source[j] !== ']'; j++) {
        const m = /^\[:(\w+):\]/.exec(source.slice(j));
        if (m !== null) {
          const cls = POSIX_CLASSES[m[1]!];
          if (cls === undefined) throw new Unsupported();
          body += cls;
          j += m[0].length - 1;
        } else if (source[j] === '\\') {
          body += source.slice(j, j + 2);
          j++;
        } else body += source[j] === '[' ? '\\[' : source[j];
      }
      if (j >= source.length) throw new Unsupported();
      js += `[${body}]`;
      i = j;
    } else js += c;
  }
  return js;
}

/** A regex of awk as a JavaScript one (cached: a loop matches the same text many times). */
export function ere(source: string): RegExp {
  let re = cache.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(translate(source), 's');
    } catch {
      throw new Unsupported();
    }
    if (cache.size > 500) cache.clear();
    cache.set(source, re);
  }
  return re;
}

/** Each regex's global twin, which searches from a given index. */
const searching = new WeakMap<RegExp, RegExp>();

/**
 * The match POSIX (and mawk) finds: the leftmost, and of those the longest. JavaScript takes
 * the first alternative that matches (/ab|abcd/ finds "ab" in "abcd", mawk "abcd"), so where
 * the regex has an alternation the lab tries longer ends at the same start.
 */
export function longestMatch(
  re: RegExp,
  text: string,
  from = 0,
): { index: number; text: string } | undefined {
  // prettier-ignore
  let search = searching.get(re);
  if (search === undefined) searching.set(re, (search = new RegExp(re.source, 'gs')));
  search.lastIndex = from;
  const m = search.exec(text);
  if (m === null) return undefined;
  let found = m[0];
  if (re.source.includes('|')) {
    const whole = new RegExp(`^(?:${re.source})$`, 's');
    for (let end = text.length; end > m.index + found.length; end--)
      if (whole.test(text.slice(m.index, end))) {
        found = text.slice(m.index, end);
        break;
      }
  }
  return { index: m.index, text: found };
}

/** Text cut at each (leftmost-longest, non-empty) match of `re`: FS or split()'s regex. */
export function splitByRegex(text: string, re: RegExp): string[] {
  if (text === '') return [];
  const pieces: string[] = [];
  let start = 0;
  let at = 0;
  while (at <= text.length) {
    const m = longestMatch(re, text, at);
    if (m === undefined) break;
    if (m.text === '') {
      at = m.index + 1;
      continue;
    }
    pieces.push(text.slice(start, m.index));
    start = at = m.index + m.text.length;
  }
  pieces.push(text.slice(start));
  return pieces;
}
