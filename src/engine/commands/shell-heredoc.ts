/**
 * Here-documents as the tokenizer (shell-lex.ts) reads them (bash(1) "Here Documents"): the
 * delimiter word after `<<` or `<<-`, and, once the command line's newline is reached, each
 * pending body in the order its `<<` was written, up to a line that is exactly the delimiter
 * (`<<-` strips leading tabs from the body's lines and the delimiter line first).
 *
 * A delimiter with any quoting (`'EOF'`, `"EOF"`, `\EOF`, `E"O"F`) leaves its body as typed;
 * otherwise the body gets parameter expansion, command substitution and arithmetic expansion,
 * and `\` quotes only `\`, `$`, `` ` `` and a newline (so `\"` stays `\"`). The body is stored as
 * a marked word (shell-types.ts MARK, expansions quoted: never split) that shell-input.ts
 * expands when the command runs, as bash does.
 */
import { expansion, type Token } from './shell-lex';

/** A `<<` whose body is still to be read, then its body as a marked word. */
export interface HereDoc {
  readonly delimiter: string;
  /** Any quote or `\` in the delimiter: the body is not expanded. */
  readonly quoted: boolean;
  /** `<<-`: leading tabs stripped from each body line. */
  readonly stripTabs: boolean;
  /** 1-based line of the `<<` in the text, for bash's end-of-file warning. */
  readonly line: number;
  /** Index of the `<<` in the text (a script's diagnostic points at it). */
  readonly offset: number;
  /** Filled in when the newline ending the command line is reached. */
  body?: string;
}

/** Characters that end an unquoted word (bash's metacharacters). */
const METACHARACTERS = ' \t\n;|&<>()';

/**
 * The delimiter word starting at or after `from` (blanks skipped): its text with quotes removed,
 * whether it was quoted, and the index after it; undefined when no word follows (`cat <<` or
 * `cat << |`), which the parser reports as bash does.
 */
export function readDelimiter(
  line: string,
  from: number,
): { delimiter: string; quoted: boolean; end: number } | undefined {
  let i = from;
  while (line.charAt(i) === ' ' || line.charAt(i) === '\t') i++;
  let delimiter = '';
  let quoted = false;
  const start = i;
  while (i < line.length && !METACHARACTERS.includes(line.charAt(i))) {
    const c = line.charAt(i);
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      const end = close < 0 ? line.length : close;
      delimiter += line.slice(i + 1, end);
      quoted = true;
      i = end + 1;
    } else if (c === '\\' && i + 1 < line.length) {
      delimiter += line.charAt(i + 1);
      quoted = true;
      i += 2;
    } else {
      delimiter += c;
      i++;
    }
  }
  if (i === start) return undefined;
  return { delimiter, quoted, end: i };
}

/**
 * Reads `doc`'s body from `from` (the start of the line after the command line's newline):
 * the index after its delimiter line, or `terminated: false` with the rest of the text as the
 * body when no line is the delimiter (bash warns and uses it).
 */
export function readBody(
  text: string,
  from: number,
  doc: HereDoc,
): { end: number; terminated: boolean } {
  let body = '';
  let i = from;
  while (i < text.length) {
    const newline = text.indexOf('\n', i);
    const lineEnd = newline < 0 ? text.length : newline;
    let content = text.slice(i, lineEnd);
    if (doc.stripTabs) content = content.replace(/^\t+/, '');
    i = newline < 0 ? text.length : newline + 1;
    if (content === doc.delimiter) {
      doc.body = doc.quoted ? body : markBody(body);
      return { end: i, terminated: true };
    }
    body += `${content}\n`;
  }
  doc.body = doc.quoted ? body : markBody(body);
  return { end: text.length, terminated: false };
}

/**
 * The `<<<`, `<<WORD` or `<<-WORD` at `line[at]` as a token, and the index after it. With no
 * word after `<<` the token is a plain `<`, whose missing word the parser reports as bash does
 * (`syntax error near unexpected token `newline'`).
 */
export function hereOperator(
  line: string,
  at: number,
): { token: Extract<Token, { kind: 'redir' }>; end: number } {
  if (line.charAt(at + 2) === '<')
    return { token: { kind: 'redir', fd: 0, append: false, hereString: true }, end: at + 3 };
  const stripTabs = line.charAt(at + 2) === '-';
  const after = at + (stripTabs ? 3 : 2);
  const word = readDelimiter(line, after);
  if (word === undefined) return { token: { kind: 'redir', fd: 0, append: false }, end: after };
  const { delimiter, quoted } = word;
  const lineNo = line.slice(0, at).split('\n').length;
  const here: HereDoc = { delimiter, quoted, stripTabs, line: lineNo, offset: at };
  return { token: { kind: 'redir', fd: 0, append: false, here }, end: word.end };
}

/** The bodies of `docs`, one after another from `from`: the index after them, bash's warnings. */
export function readBodies(
  text: string,
  from: number,
  docs: readonly HereDoc[],
): { end: number; warnings: string } {
  let end = from;
  let warnings = '';
  for (const doc of docs) {
    const read = readBody(text, end, doc);
    if (!read.terminated) warnings += endOfFileWarning(doc);
    end = read.end;
  }
  return { end, warnings };
}

/** An unquoted here-document's body as a marked word: expansions found, `\` read as bash does. */
function markBody(body: string): string {
  let word = '';
  let i = 0;
  while (i < body.length) {
    const c = body.charAt(i);
    if (c === '\\' && '$`\\\n'.includes(body.charAt(i + 1)) && i + 1 < body.length) {
      if (body.charAt(i + 1) !== '\n') word += body.charAt(i + 1);
      i += 2;
      continue;
    }
    const x = c === '$' || c === '`' ? expansion(body, i, true) : undefined;
    if (Array.isArray(x)) {
      word += x[0];
      i = x[1];
      continue;
    }
    word += c;
    i++;
  }
  return word;
}

/** bash's warning for a here-document that reached the end of the input. */
export function endOfFileWarning(doc: HereDoc): string {
  return `bash: warning: here-document at line ${doc.line} delimited by end-of-file (wanted \`${doc.delimiter}')\n`;
}
