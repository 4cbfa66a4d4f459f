/**
 * The expansions of a word when its command runs (bash(1) "EXPANSION", in its order): parameter
 * expansion (`$NAME`, `${NAME}`, `$?`, `${…}` with operators in shell-param.ts) and command substitution (`$(…)`, `` `…` ``: the command
 * line's stdout, trailing newlines removed), then word splitting of the unquoted results on
 * blanks and newlines (IFS unset). Brace expansion was done by the tokenizer (shell-lex.ts).
 * No globbing: a word with `*` stays as it is, as bash leaves a pattern that matches no file.
 */
import { arithmetic, MAX_ARITH_DEPTH } from './shell-arith';
import { labNote } from '../model/lab-notes';
import { expandParameter } from './shell-param';
import { scanWord } from './shell-param-word';
import { MARK, wordText, type Expansion, type Segment } from './shell-types';

/** The shell's variables for one command line. */
export interface ShellEnv {
  readonly vars: Map<string, string>;
  /** `$?`: the status of the last pipeline. */
  status: number;
}

/**
 * Variables a root shell on a node or in a container has (Debian's /root/.profile, login's
 * PATH for root); loop variables are added as the loops run. Others expand to nothing, as an
 * unset variable does.
 */
export function newShellEnv(): ShellEnv {
  return {
    vars: new Map([
      ['HOME', '/root'],
      ['USER', 'root'],
      ['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    ]),
    status: 0,
  };
}

/**
 * `$?`; `$0` is the shell's name and a terminal's line has no positional parameters (`$#` 0,
 * `$1`… and `$@` empty).
 */
function special(name: string, env: ShellEnv): string | undefined {
  if (name === '?') return String(env.status);
  if (name === '0') return 'bash';
  if (name === '#') return '0';
  if (name === '@' || name === '*' || /^\d+$/.test(name)) return '';
  return undefined;
}

/** A parameter for `${…}`: undefined when unset (positional parameters, unknown names). */
function lookup(name: string, env: ShellEnv): string | undefined {
  if (name === '@' || name === '*' || /^[1-9]\d*$/.test(name)) return undefined;
  return special(name, env) ?? env.vars.get(name);
}

/** Runs a command line (for `$(…)`): its stdout, and what it wrote to stderr. */
export type Substitute = (line: string) => {
  readonly stdout: string;
  readonly stderr: string;
  /** The lab refused the line (too deep): the command of the word does not run either. */
  readonly failed?: true;
};

const MARKS = new RegExp(
  `[${Object.values(MARK)
    .filter((m) => m !== MARK.end)
    .join('')}]`,
);

/** The value of one marked expansion (MARK + `inner` + end) as pieces. */
function expandMark(mark: string, inner: string, env: ShellEnv, substitute: Substitute): Expansion {
  const quoted = mark === MARK.varQuoted || mark === MARK.subQuoted || mark === MARK.paramQuoted;
  const piece = (text: string, stderr = ''): Expansion => ({
    segments: [{ text, quoted }],
    stderr,
  });
  if (mark === MARK.lit) return { segments: [{ text: inner, quoted: true }], stderr: '' };
  if (mark === MARK.param || mark === MARK.paramQuoted) {
    return expandParameter(inner, quoted, {
      lookup: (name) => lookup(name, env),
      assign: (name, value) => env.vars.set(name, value),
      expand: (word) => expandSegments(word, env, substitute, false),
    });
  }
  if (mark === MARK.arith) {
    // bash expands `${…}`, `$(…)` and `$X` in the expression first: `$((${#X} + 1))`.
    let expression = inner;
    let stderr = '';
    if (/[$`]/.test(inner)) {
      const e = expandSegments(scanWord(inner, 0, 'dquoted').word, env, substitute, false);
      if (e.failed === true) return e;
      expression = e.segments.map((s) => s.text).join('');
      stderr = e.stderr;
    }
    const r = arithmetic(expression, (name) => special(name, env) ?? env.vars.get(name) ?? '');
    const fail = (message: string): Expansion => ({ segments: [], stderr: stderr + message, failed: true }); // prettier-ignore
    // An arithmetic error ends the command before it runs (status 1), as in bash.
    if ('error' in r) return fail(`bash: ${r.error}\n`);
    if ('tooDeep' in r) return fail(labNote('shell.arithmetic-depth', { max: MAX_ARITH_DEPTH }));
    if ('unsupported' in r) return fail(labNote('shell.arithmetic'));
    return piece(String(r.value), stderr);
  }
  if (mark === MARK.var || mark === MARK.varQuoted) {
    // "$@" with no positional parameters is no field at all, not an empty one.
    if (inner === '@' && quoted) return { segments: [{ text: '', quoted: false }], stderr: '' };
    return piece(special(inner, env) ?? env.vars.get(inner) ?? '');
  }
  const r = substitute(inner);
  if (r.failed === true) return { segments: [], stderr: r.stderr, failed: true };
  return piece(r.stdout.replace(/\n+$/, ''), r.stderr);
}

/**
 * The pieces of a marked word. `typed`: text outside the marks was typed in the command's own
 * word (never split); inside a `${…}` operator's word it is unquoted text (it splits).
 */
export function expandSegments(
  word: string,
  env: ShellEnv,
  substitute: Substitute,
  typed = true,
): Expansion {
  const segments: Segment[] = [];
  let stderr = '';
  for (let i = 0; i < word.length;) {
    const next = word.slice(i).search(MARKS);
    const plainEnd = next < 0 ? word.length : i + next;
    if (plainEnd > i) {
      const text = word.slice(i, plainEnd);
      segments.push(typed ? { text, quoted: false, literal: true } : { text, quoted: false });
      i = plainEnd;
      continue;
    }
    const end = word.indexOf(MARK.end, i);
    const e = expandMark(word.charAt(i), word.slice(i + 1, end), env, substitute);
    stderr += e.stderr;
    if (e.badSubstitution === true) stderr += `bash: ${wordText(word)}: bad substitution\n`;
    if (e.failed === true) return { segments: [], stderr, failed: true };
    // One at a time: spread into push(), a long list overflows the stack.
    for (const s of e.segments) segments.push(s);
    i = end + 1;
  }
  return { segments, stderr };
}

/** Pieces into fields: unquoted expansion results split on blanks and newlines (IFS unset). */
function fieldsOf(segments: readonly Segment[]): string[] {
  const fields: string[] = [];
  let current = '';
  /** The current field has something that keeps it even when empty (literal text, quotes). */
  let kept = false;
  for (const s of segments) {
    if (s.quoted || s.literal === true) {
      current += s.text;
      kept = true;
      continue;
    }
    const parts = s.text.split(/[ \t\n]+/);
    for (const [k, part] of parts.entries()) {
      if (k > 0 && (kept || current !== '')) {
        fields.push(current);
        current = '';
        kept = false;
      }
      current += part;
    }
  }
  if (kept || current !== '') fields.push(current);
  return fields;
}

/** The fields a word expands to, and the stderr of its command substitutions. */
export function expandWord(
  word: string,
  env: ShellEnv,
  substitute: Substitute,
): { fields: string[]; stderr: string; failed?: true } {
  if (!MARKS.test(word)) return { fields: [word], stderr: '' };
  const e = expandSegments(word, env, substitute);
  if (e.failed === true) return { fields: [], stderr: e.stderr, failed: true };
  return { fields: fieldsOf(e.segments), stderr: e.stderr };
}

/** An assignment's value (`X=…`): expanded, quotes removed, never split into fields. */
export function expandAssigned(
  word: string,
  env: ShellEnv,
  substitute: Substitute,
): { fields: string[]; stderr: string; failed?: true } {
  const e = expandSegments(word, env, substitute);
  if (e.failed === true) return { fields: [], stderr: e.stderr, failed: true };
  return { fields: [e.segments.map((s) => s.text).join('')], stderr: e.stderr };
}
