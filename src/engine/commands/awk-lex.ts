/**
 * awk's tokens for awk-parse.ts as mawk 1.3.4's scanner (scan.c) makes them: numbers, strings
 * (with their escapes), /regex/ literals (where an operand cannot end, so `a / b` divides),
 * names, keywords, operators and newlines, each with its line and the text mawk's "syntax
 * error at or near X" shows; and what the scanner complains of as it reads (an extra `)` or
 * `}`, a runaway string), which inMawksOrder puts in order with the parser's message.
 */

export type TokKind = 'num' | 'str' | 're' | 'name' | 'func' | 'op' | 'nl' | 'eof';
export interface Tok {
  readonly t: TokKind;
  /** The token's value: the number's text, the string unescaped, the operator, the name. */
  readonly v: string;
  readonly line: number;
}

/** The program uses what the lab does not model: the caller says so (a lab note). */
export class Unsupported extends Error {}

/**
 * A program mawk itself refuses: its message (after `mawk: `) and exit status 2; `at` is the
 * token the parser stopped at (mawk's scanner may complain before or after it).
 */
export class AwkSyntaxError extends Error {
  constructor(
    message: string,
    readonly at?: number,
  ) {
    super(message);
  }
}

/**
 * What mawk's scanner says as it reads, before token `at`: an extra `)` is dropped and
 * reading goes on; a runaway string or regex, or a stray character, ends the program there.
 */
export interface ScanComplaint {
  readonly at: number;
  readonly message: string;
  readonly fatal: boolean;
}

const OPS = ['&&', '||', '==', '!=', '<=', '>=', '!~', '++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '>>', '{', '}', '(', ')', '[', ']', ';', ',', '+', '-', '*', '/', '%', '^', '!', '<', '>', '~', '?', ':', '=', '$', '|']; // prettier-ignore

// `\/` stays as it is in a string (it is an escape only in a /regex/).
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v' }; // prettier-ignore

/** A string constant's escapes as mawk reads them (`\q` stays `\q`). */
export function unescape(s: string): string {
  return s.replace(/\\([0-7]{1,3}|.)/gs, (m, c: string) =>
    /^[0-7]/.test(c) ? String.fromCharCode(parseInt(c, 8)) : (ESCAPES[c] ?? m),
  );
}

/** What mawk quotes of a runaway string or regex: up to 10 characters after it opens, on its line. */
const shown = (rest: string) => rest.slice(0, 11).split('\n')[0]!;

/** Tokens that end an operand: after one, `/` divides and `++` is postfix. */
function endsOperand(p: Tok | undefined): boolean {
  if (p === undefined) return false;
  // After `print` (or any keyword) a `/` starts a regex.
  if (p.t === 'name') return !KEYWORDS.has(p.v);
  if (p.t === 'num' || p.t === 'str' || p.t === 're') return true;
  return p.t === 'op' && (p.v === ')' || p.v === ']' || p.v === '$' || p.v === '++' || p.v === '--'); // prettier-ignore
}

/** awk's reserved words: never a function's name, even right before `(`. */
export const KEYWORDS = new Set(['BEGIN', 'END', 'function', 'func', 'if', 'else', 'while', 'for', 'do', 'break', 'continue', 'next', 'exit', 'return', 'delete', 'in', 'getline', 'print', 'printf']); // prettier-ignore

export function tokenize(program: string): { toks: Tok[]; complaints: ScanComplaint[] } {
  // mawk reads the program as if it ended with a newline.
  const src = `${program}\n`;
  const out: Tok[] = [];
  const complaints: ScanComplaint[] = [];
  let parens = 0;
  let braces = 0;
  let line = 1;
  /**
   * mawk's scanner eats the newlines (and blanks, comments) after `{`, `;`, `}` and a
   * newline, and one `;` on the line after a `}` closing a rule: no newline token reaches
   * the parser there, which is why a stray `}` makes the next newline a syntax error.
   */
  const eatNewlines = (i: number): number => {
    for (;;) {
      if (src[i] === ' ' || src[i] === '\t' || src[i] === '\r') i++;
      else if (src[i] === '\n' || (src[i] === '\\' && src[i + 1] === '\n')) {
        i += src[i] === '\n' ? 1 : 2;
        line++;
      } else if (src[i] === '#') while (i < src.length && src[i] !== '\n') i++;
      else return i;
    }
  };
  const eatSemicolon = (i: number): number => {
    while (src[i] === ' ' || src[i] === '\t') i++;
    return src[i] === ';' ? i + 1 : i;
  };
  const push = (t: TokKind, v: string) => out.push({ t, v, line });
  const complain = (message: string, fatal: boolean) => complaints.push({ at: out.length, message, fatal }); // prettier-ignore
  for (let i = 0; i < src.length;) {
    const c = src[i]!;
    const rest = src.slice(i);
    if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
    } else if (c === '\n') {
      push('nl', '\n');
      line++;
      i = eatNewlines(i + 1);
    } else if (c === '#') while (i < src.length && src[i] !== '\n') i++;
    else if (c === '"') {
      const m = /^"((?:[^"\\\n]|\\.)*)"/s.exec(rest);
      if (m === null) {
        complain(`line ${line}: runaway string constant ${shown(rest)} ...`, true);
        break;
      }
      push('str', unescape(m[1]!));
      i += m[0].length;
    } else if (c === '/' && !endsOperand(out[out.length - 1])) {
      const m = /^\/((?:[^/\\\n[]|\\.|\[\^?\]?(?:[^\]\\\n]|\\.|\[:\w+:\])*\])*)\//.exec(rest);
      if (m === null) {
        complain(`line ${line}: runaway regular expression ${shown(rest)} ...`, true);
        break;
      }
      push('re', m[1]!);
      i += m[0].length;
    } else if (/[0-9.]/.test(c) && /^(\d+\.?\d*|\.\d+)/.test(rest)) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(rest)!;
      push('num', m[0]);
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_]\w*/.exec(rest)!;
      // A function's call has its `(` right after the name (awk's grammar needs that).
      push(src[i + m[0].length] === '(' && !KEYWORDS.has(m[0]) ? 'func' : 'name', m[0]);
      i += m[0].length;
    } else {
      const op = OPS.find((o) => src.startsWith(o, i));
      if (op === undefined) {
        complain(`${line}: unexpected character '${c}'`, true);
        break;
      }
      i += op.length;
      // mawk's scanner counts parentheses and braces and drops one closing nothing.
      if (op === '(') parens++;
      if (op === ')' && --parens < 0) {
        parens = 0;
        complain(`line ${line}: extra ')'`, false);
        continue;
      }
      if (op === '}' && --braces < 0) {
        braces = 0;
        complain(`line ${line}: extra '}'`, false);
        i = eatSemicolon(i);
        continue;
      }
      push('op', op);
      if (op === '{') braces++;
      if (op === '}' && braces === 0) i = eatSemicolon(i);
      if (op === '{' || op === '}' || op === ';') i = eatNewlines(i);
    }
  }
  out.push({ t: 'eof', v: '', line });
  return { toks: out, complaints };
}

/**
 * mawk's messages, one a line, in the order it prints them: the scanner's from before the
 * token the parser stopped at, the parser's, then the scanner's after it (mawk reads on to
 * recover), up to one that ends the program.
 */
export function inMawksOrder(
  complaints: readonly ScanComplaint[],
  failure: AwkSyntaxError | undefined,
  position: number,
): string {
  // prettier-ignore
  const stop = failure?.at ?? position;
  const messages: string[] = [];
  for (const c of complaints.filter((c) => c.at <= stop)) {
    messages.push(c.message);
    if (c.fatal) return messages.join('\n');
  }
  if (failure !== undefined) messages.push(failure.message);
  for (const c of complaints.filter((c) => c.at > stop)) {
    messages.push(c.message);
    if (c.fatal) break;
  }
  return messages.join('\n');
}
