/**
 * The lab shell's tokenizer: one command line into words and operators, following bash's
 * quoting rules (bash(1) "QUOTING"):
 *
 * - `'…'` preserves every character literally (no escapes, no expansion inside);
 * - `"…"` preserves characters literally except `\`, which escapes only `$`, `` ` ``, `"`, `\`
 *   and newline (elsewhere the backslash is kept, as in `"a\b"` → `a\b`), and `$`;
 * - an unquoted `\` quotes the next character; `\` + newline is a line continuation;
 * - an unquoted `#` at the start of a word starts a comment (interactive_comments is on);
 * - `|`, `&&`, `||` and `;` are control operators; `>`, `>>`, `<`, `2>`, `&>` and `2>&1`
 *   are redirections.
 *
 * Expansions are kept in the word as marked pieces (shell-expand.ts) and done when the command
 * runs: `$NAME`, `${NAME}`, `${…}` with its operators (shell-param.ts), `$?`, `$((…))`, `$(…)`
 * and `` `…` ``, unquoted or inside double quotes. An unquoted word `PRE{A..B}POST` is
 * brace-expanded here, as bash does before anything else.
 */
import { labNote } from '../model/lab-notes';
import { endOfFileWarning, hereOperator, readBodies, type HereDoc } from './shell-heredoc';
import { braceDepth, braceEnd, closing } from './shell-scan';
import { MARK, MAX_NESTING, type Redirection } from './shell-types';

/** A `${` that no `}` closes (bash's syntax error, status 2), or one nested too deep. */
function lexError(why: 'unclosed' | 'too-deep'): { error: string; exitCode: number } {
  if (why === 'unclosed') return { error: "bash: unexpected EOF while looking for matching `}'\n", exitCode: 2 }; // prettier-ignore
  return { error: labNote('shell.parameter-depth', { max: MAX_NESTING }), exitCode: 1 };
}

export type Token =
  | {
      readonly kind: 'word';
      readonly value: string;
      /** Some of it was quoted or escaped: never a reserved word (`'for'` is a command). */
      readonly quoted: boolean;
    }
  | { readonly kind: 'op'; readonly op: '|' | ';' | '&&' | '||' }
  | {
      readonly kind: 'redir';
      readonly fd: Redirection['fd'];
      readonly append: boolean;
      readonly dup?: string;
      /** `<<WORD` or `<<-WORD`: the here-document, its body read at the line's end. */
      readonly here?: HereDoc;
      /** `<<<`: the word after it is a here-string. */
      readonly hereString?: true;
    };

/**
 * The most words brace expansion makes on one line. bash has no limit of its own but memory;
 * the lab holds every word, and a sequence beyond this is refused with a lab note.
 */
export const MAX_BRACE_WORDS = 1_000_000;

/** bash's intmax_t: an end outside it is not a number to legal_number(), and not expanded. */
const INTMAX = 2n ** 63n;
/**
 * bash 5.2 braces.c mkseq() gives up (the word stays as typed) when the sequence has more
 * than INT_MAX - 2 elements: `(prevn / incr) > INT_MAX - 3`.
 */
const BASH_MAX_ELEMENTS = 2 ** 31 - 1 - 2;

/**
 * bash's brace sequence `PRE{A..B}POST` in an unquoted word: integers or single letters, either
 * direction; 'too-many' past `room` more words.
 */
function braceSequence(word: string, room: number): string[] | 'too-many' | undefined {
  const m = /^([^{}]*)\{(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])\}([^{}]*)$/.exec(word);
  if (m === null) return undefined;
  const letters = /[A-Za-z]/.test(m[2]!);
  if (letters !== /[A-Za-z]/.test(m[3]!)) return undefined;
  if (!letters && [m[2]!, m[3]!].some((n) => BigInt(n) >= INTMAX || BigInt(n) < -INTMAX)) return undefined; // prettier-ignore
  const a = letters ? m[2]!.charCodeAt(0) : Number(m[2]);
  const b = letters ? m[3]!.charCodeAt(0) : Number(m[3]);
  const count = Math.abs(b - a) + 1;
  if (count > BASH_MAX_ELEMENTS) return undefined;
  if (count > room) return 'too-many';
  const out: string[] = [];
  for (let n = a; a <= b ? n <= b : n >= b; n += a <= b ? 1 : -1)
    out.push(`${m[1]}${letters ? String.fromCharCode(n) : n}${m[4]}`);
  return out;
}

/**
 * An expansion starting at `line[i]` (`$` or `` ` ``): the marked piece and the index after
 * it, or undefined when it is a plain `$`, or 'unclosed' for a `${` without its `}`, or
 * 'too-deep' past MAX_NESTING nested `${`.
 */
export function expansion(
  line: string,
  i: number,
  quoted: boolean,
): [string, number] | 'unclosed' | 'too-deep' | undefined {
  const c = line.charAt(i);
  if (line.startsWith('$((', i)) {
    // Arithmetic: up to the `))` that closes it (parentheses inside nest).
    let depth = 0;
    for (let k = i + 3; k < line.length; k++) {
      const ch = line.charAt(k);
      if (ch === '(') depth++;
      else if (ch === ')' && depth > 0) depth--;
      else if (ch === ')' && line.charAt(k + 1) === ')')
        return [`${MARK.arith}${line.slice(i + 3, k)}${MARK.end}`, k + 2]; // prettier-ignore
      else if (ch === ')') return undefined;
    }
    return undefined;
  }
  const sub = quoted ? MARK.subQuoted : MARK.sub;
  if (c === '`' || line.startsWith('$(', i)) {
    const open = c === '`' ? i + 1 : i + 2;
    const end = closing(line, open, c === '`' ? '`' : ')');
    if (end < 0) return undefined;
    return [`${sub}${line.slice(open, end)}${MARK.end}`, end + 1];
  }
  const v = quoted ? MARK.varQuoted : MARK.var;
  // Names, `$?`, and the positional and special parameters `$0`…`$9`, `$#`, `$@`, `$*`.
  const braced = /^\$\{([A-Za-z_]\w*|[?#@*]|\d+)\}/.exec(line.slice(i));
  if (braced === null && line.startsWith('${', i)) {
    // Any other `${…}` (an operator, `${#X}`, or bad): kept as typed, read when it expands
    // (shell-param.ts), since bash reports a bad substitution only when the word expands.
    if (braceDepth(line, i) > MAX_NESTING) return 'too-deep';
    const end = braceEnd(line, i + 2);
    if (end < 0) return 'unclosed';
    return [`${quoted ? MARK.paramQuoted : MARK.param}${line.slice(i + 2, end)}${MARK.end}`, end + 1]; // prettier-ignore
  }
  const plain = braced ?? /^\$([A-Za-z_]\w*|[?#@*\d])/.exec(line.slice(i));
  if (plain === null) return undefined;
  return [`${v}${plain[1]}${MARK.end}`, i + plain[0].length];
}

/** Splits a line into words and operators (quotes removed, expansions marked). */
export function lexLine(
  line: string,
): { tokens: Token[]; warnings: string } | { error: string; exitCode?: number } {
  const tokens: Token[] = [];
  /** Here-documents whose `<<` was read and whose body starts after the next newline. */
  let pending: HereDoc[] = [];
  /** bash's warnings about here-documents cut short by the end of the text. */
  let warnings = '';
  let word = '';
  let inWord = false;
  let quoted = false;
  let plain = true;
  let braceWords = 0;
  /** The sequence that would make more than MAX_BRACE_WORDS words, as typed. */
  let tooMany: string | undefined;
  const flush = (): void => {
    const seq = inWord && plain ? braceSequence(word, MAX_BRACE_WORDS - braceWords) : undefined;
    if (seq === 'too-many') tooMany ??= word;
    else if (seq !== undefined) {
      braceWords += seq.length;
      for (const w of seq) tokens.push({ kind: 'word', value: w, quoted: false });
    } else if (inWord) tokens.push({ kind: 'word', value: word, quoted });
    word = '';
    inWord = false;
    quoted = false;
    plain = true;
  };
  let i = 0;
  while (i < line.length) {
    const c = line.charAt(i);
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { error: "bash: unexpected EOF while looking for matching `''\n" };
      word += line.slice(i + 1, end);
      inWord = quoted = true;
      plain = false;
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let closed = false;
      while (j < line.length) {
        const d = line.charAt(j);
        if (d === '"') {
          closed = true;
          break;
        }
        if (d === '\\' && j + 1 < line.length && '$`"\\\n'.includes(line.charAt(j + 1))) {
          if (line.charAt(j + 1) !== '\n') word += line.charAt(j + 1);
          j += 2;
          continue;
        }
        const x = d === '$' || d === '`' ? expansion(line, j, true) : undefined;
        if (typeof x === 'string') return lexError(x);
        if (x !== undefined) {
          word += x[0];
          j = x[1];
          continue;
        }
        word += d;
        j++;
      }
      if (!closed) return { error: 'bash: unexpected EOF while looking for matching `"\'\n' };
      inWord = quoted = true;
      plain = false;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 < line.length) {
        if (line.charAt(i + 1) !== '\n') {
          word += line.charAt(i + 1);
          inWord = quoted = true;
          plain = false;
        }
        i += 2;
      } else {
        // A trailing backslash asks bash for a continuation line; at end of input it is dropped.
        i++;
      }
    } else if ((c === '$' || c === '`') && expansion(line, i, false) !== undefined) {
      const x = expansion(line, i, false)!;
      if (typeof x === 'string') return lexError(x);
      const [piece, next] = x;
      word += piece;
      inWord = true;
      plain = false;
      i = next;
    } else if (c === '\n' && pending.length > 0) {
      flush();
      i++;
      const read = readBodies(line, i, pending);
      warnings += read.warnings;
      i = read.end;
      pending = [];
      // What follows the bodies is the next command, as after `;` (unless the line asked to go
      // on: `cat <<EOF |` then the body, then the pipeline's next command).
      if (line.slice(i).trim() !== '' && tokens.at(-1)?.kind !== 'op')
        tokens.push({ kind: 'op', op: ';' });
    } else if (c === ' ' || c === '\t' || c === '\n') {
      flush();
      i++;
    } else if (c === '#' && !inWord) {
      // A comment ends at the newline: here-document bodies may follow it.
      const newline = line.indexOf('\n', i);
      if (pending.length === 0 || newline < 0) break;
      i = newline;
    } else if (c === '|' || c === ';' || c === '&') {
      flush();
      const two = line.slice(i, i + 2);
      if (two === '||' || two === '&&') {
        tokens.push({ kind: 'op', op: two });
        i += 2;
      } else if (two === '&>') {
        const append = line.charAt(i + 2) === '>';
        tokens.push({ kind: 'redir', fd: 'both', append });
        i += append ? 3 : 2;
      } else if (c === '&') {
        return { error: labNote('shell.background') };
      } else {
        tokens.push({ kind: 'op', op: c === '|' ? '|' : ';' });
        i++;
      }
    } else if ((c === '<' || c === '>') && line.charAt(i + 1) === '(') {
      // `<(…)` and `>(…)`: bash's process substitution, which the lab shell does not run.
      return { error: labNote('shell.compound', { keyword: `${c}(…)` }) };
    } else if (c === '<' && line.charAt(i + 1) === '<') {
      flush();
      const op = hereOperator(line, i);
      if (op.token.here !== undefined) pending.push(op.token.here);
      tokens.push(op.token);
      i = op.end;
    } else if (
      c === '>' ||
      c === '<' ||
      ((c === '1' || c === '2') && !inWord && /^[12]>/.test(line.slice(i)))
    ) {
      flush();
      let fd: Redirection['fd'] = c === '<' ? 0 : 1;
      if (c === '1' || c === '2') {
        fd = c === '2' ? 2 : 1;
        i++;
      }
      i++;
      const append = fd !== 0 && line.charAt(i) === '>';
      if (append) i++;
      if (line.charAt(i) === '&' && /^&[12]/.test(line.slice(i))) {
        tokens.push({ kind: 'redir', fd, append, dup: line.slice(i, i + 2) });
        i += 2;
      } else {
        tokens.push({ kind: 'redir', fd, append });
      }
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  flush();
  for (const doc of pending) {
    // The text ended on the command line itself: an empty body, and bash's warning.
    doc.body = '';
    warnings += endOfFileWarning(doc);
  }
  if (tooMany !== undefined)
    return { error: labNote('shell.brace-limit', { max: MAX_BRACE_WORDS, word: tooMany }), exitCode: 1 }; // prettier-ignore
  return { tokens, warnings };
}
