/**
 * Where the bash constructs that nest end, for the tokenizer (shell-lex.ts) and for the words
 * inside `${…}` (shell-param-word.ts): `$(…)`, `` `…` ``, `"…"` and `${…}`. Quotes and
 * backslashes inside them are skipped, as bash's extract_dollar_brace_string() and friends do.
 */

/**
 * The end of `$(…)` or `` `…` `` opened just before `from`: the index of its closing character,
 * or -1. Quotes inside are skipped; parentheses nest.
 */
export function closing(line: string, from: number, close: ')' | '`'): number {
  let depth = 0;
  for (let i = from; i < line.length; i++) {
    const c = line.charAt(i);
    if (c === '\\') i++;
    else if (c === "'" && close === ')') {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === close && depth === 0) return i;
    else if (close === ')' && c === '(') depth++;
    else if (close === ')' && c === ')') depth--;
  }
  return -1;
}

/** The end of a nested `$(…)`, `` `…` `` or `${…}` starting at `line[i]`, or undefined if none starts there. */
function nestedEnd(line: string, i: number): number | undefined {
  if (line.startsWith('${', i)) return braceEnd(line, i + 2);
  if (line.startsWith('$(', i)) return closing(line, i + 2, ')');
  if (line.charAt(i) === '`') return closing(line, i + 1, '`');
  return undefined;
}

/** The index of the `"` closing a double-quoted string whose text starts at `from`, or -1. */
export function dquoteEnd(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line.charAt(i);
    if (c === '\\') i++;
    else if (c === '"') return i;
    else {
      const end = nestedEnd(line, i);
      if (end !== undefined) {
        if (end < 0) return -1;
        i = end;
      }
    }
  }
  return -1;
}

/**
 * The index of the `}` closing a `${` whose text starts at `from`, or -1. Single quotes hide a
 * `}` even inside double quotes (bash 5.2: `"${X:-'}'}"` is `'}'`).
 */
export function braceEnd(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line.charAt(i);
    let end: number | undefined;
    if (c === '\\') i++;
    else if (c === '}') return i;
    else if (c === "'") end = line.indexOf("'", i + 1);
    else if (c === '"') end = dquoteEnd(line, i + 1);
    else end = nestedEnd(line, i);
    if (end !== undefined) {
      if (end < 0) return -1;
      i = end;
    }
  }
  return -1;
}

/**
 * How deep `${` nests in the `${…}` starting at `line[from]`, counted without recursion (up to
 * its closing `}`, quotes not considered): the lab refuses a line nesting deeper than its limit
 * before its recursive readers could overflow the stack.
 */
export function braceDepth(line: string, from: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = from; i < line.length; i++) {
    if (line.startsWith('${', i)) {
      deepest = Math.max(deepest, ++depth);
      i++;
    } else if (line.charAt(i) === '}' && --depth === 0) break;
  }
  return deepest;
}
