/**
 * GNU sed 4.9's regular expressions as JavaScript ones: basic (BRE: `\(…\)`, `\{m,n\}`, `\+`,
 * `\?`, `\|` are the operators; `( ) { } + ? |` are plain characters; `*` at the start is one
 * too) or extended (ERE, -E), POSIX bracket expressions (`[[:digit:]]`, a backslash is a plain
 * character inside brackets), `^`/`$` as anchors only where POSIX has them, GNU's `\<`, `\>`,
 * `\w`, `\s`, `\b`, `\n`, `\t`. What has no faithful JavaScript form returns undefined, and the
 * caller says it is not modelled.
 */
import { POSIX_CLASSES } from './posix-classes';

/** A bracket expression starting at source[i] (`[`): its JavaScript text and where it ends. */
function bracket(source: string, i: number): { js: string; end: number } | undefined {
  let j = i + 1;
  let js = '[';
  if (source[j] === '^') {
    js += '^';
    j++;
  }
  // A `]` first is a member.
  if (source[j] === ']') {
    js += '\\]';
    j++;
  }
  for (; j < source.length; j++) {
    const c = source[j]!;
    if (c === ']') return { js: `${js}]`, end: j + 1 };
    if (c === '[' && source[j + 1] === ':') {
      const m = /^\[:(\w+):\]/.exec(source.slice(j));
      const cls = m === null ? undefined : POSIX_CLASSES[m[1]!];
      if (cls === undefined) return undefined;
      js += cls;
      j += m![0].length - 1;
    } else if (c === '[' && (source[j + 1] === '.' || source[j + 1] === '=')) return undefined;
    else if (c === '\\' || c === '[' || c === '^') js += `\\${c}`;
    else js += c;
  }
  return undefined;
}

/** The regex, or undefined when it uses what the lab does not translate. */
export function sedRegex(source: string, extended: boolean, flags = ''): RegExp | undefined {
  let js = '';
  // Where an operand may start: `*` is then a plain character (BRE), `^` an anchor.
  let atStart = true;
  let starPlain = false;
  for (let i = 0; i < source.length;) {
    const c = source[i]!;
    const next = source[i + 1];
    const start = atStart;
    const wasStarPlain = starPlain;
    atStart = false;
    starPlain = false;
    if (c === '[') {
      const b = bracket(source, i);
      if (b === undefined) return undefined;
      js += b.js;
      i = b.end;
      continue;
    }
    if (c === '\\') {
      if (next === undefined) return undefined;
      i += 2;
      if (!extended && '(){}+?|'.includes(next)) {
        js += next;
        atStart = next === '(' || next === '|';
      } else if (/[1-9]/.test(next)) js += `\\${next}`;
      else if (next === '<' || next === '>') js += '\\b';
      else if ('wWsSbB'.includes(next)) js += `\\${next}`;
      else if (next === 'n') js += '\\n';
      else if (next === 't') js += '\\t';
      else if (/[a-zA-Z`']/.test(next)) return undefined;
      else js += `\\${next}`;
      continue;
    }
    i++;
    if (c === '^') js += start || extended ? '^' : '\\^';
    else if (c === '$') {
      const end = i >= source.length || (!extended && source.startsWith('\\)', i)) || (!extended && source.startsWith('\\|', i)) || (extended && (source[i] === ')' || source[i] === '|')); // prettier-ignore
      js += end ? '$' : '\\$';
    } else if (c === '*') js += (start || wasStarPlain) && !extended ? '\\*' : '*';
    else if (!extended && '(){}+?|'.includes(c)) js += `\\${c}`;
    else if (extended && (c === '(' || c === '|')) {
      js += c;
      atStart = true;
    } else if ('.+?(){}|'.includes(c)) js += c;
    else if (/[\\/\-\]]/.test(c)) js += `\\${c}`;
    else js += c;
    // After the anchor `^`, a `*` is a plain character, and so is another `^`.
    starPlain = c === '^' && start;
  }
  try {
    return new RegExp(js, flags);
  } catch {
    return undefined;
  }
}
