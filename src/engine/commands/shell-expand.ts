/**
 * The expansions of a word when its command runs (bash(1) "EXPANSION", in its order): parameter
 * expansion (`$NAME`, `${NAME}`, `$?`) and command substitution (`$(…)`, `` `…` ``: the command
 * line's stdout, trailing newlines removed), then word splitting of the unquoted results on
 * blanks and newlines (IFS unset). Brace expansion was done by the tokenizer (shell-lex.ts).
 * No globbing: a word with `*` stays as it is, as bash leaves a pattern that matches no file.
 */
import { arithmetic, MAX_ARITH_DEPTH } from './shell-arith';
import { labNote } from '../model/lab-notes';
import { MARK } from './shell-types';

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

/** Runs a command line (for `$(…)`): its stdout, and what it wrote to stderr. */
export type Substitute = (line: string) => {
  readonly stdout: string;
  readonly stderr: string;
  /** The lab refused the line (too deep): the command of the word does not run either. */
  readonly failed?: true;
};

const MARKS = new RegExp(`[${MARK.var}${MARK.varQuoted}${MARK.sub}${MARK.subQuoted}${MARK.arith}]`);

/** The fields a word expands to, and the stderr of its command substitutions. */
export function expandWord(
  word: string,
  env: ShellEnv,
  substitute: Substitute,
): { fields: string[]; stderr: string; failed?: true } {
  if (!MARKS.test(word)) return { fields: [word], stderr: '' };
  const fields: string[] = [];
  let current = '';
  /** The current field has something that keeps it even when empty (literal text, quotes). */
  let kept = false;
  let stderr = '';
  const split = (value: string) => {
    const parts = value.split(/[ \t\n]+/);
    for (const [k, part] of parts.entries()) {
      if (k > 0 && (kept || current !== '')) {
        fields.push(current);
        current = '';
        kept = false;
      }
      current += part;
    }
  };
  for (let i = 0; i < word.length;) {
    const c = word.charAt(i);
    if (
      c !== MARK.var &&
      c !== MARK.varQuoted &&
      c !== MARK.sub &&
      c !== MARK.subQuoted &&
      c !== MARK.arith
    ) {
      current += c;
      kept = true;
      i++;
      continue;
    }
    const end = word.indexOf(MARK.end, i);
    const inner = word.slice(i + 1, end);
    i = end + 1;
    let value: string;
    if (c === MARK.arith) {
      const r = arithmetic(inner, (name) => special(name, env) ?? env.vars.get(name) ?? '');
      // An arithmetic error ends the command before it runs (status 1), as in bash.
      if ('error' in r) return { fields: [], stderr: `${stderr}bash: ${r.error}\n`, failed: true };
      if ('tooDeep' in r) return { fields: [], stderr: stderr + labNote('shell.arithmetic-depth', { max: MAX_ARITH_DEPTH }), failed: true }; // prettier-ignore
      if ('unsupported' in r) return { fields: [], stderr: stderr + labNote('shell.arithmetic'), failed: true }; // prettier-ignore
      value = String(r.value);
    } else if (c === MARK.var || c === MARK.varQuoted) {
      value = special(inner, env) ?? env.vars.get(inner) ?? '';
    } else {
      const r = substitute(inner);
      stderr += r.stderr;
      if (r.failed === true) return { fields: [], stderr, failed: true };
      value = r.stdout.replace(/\n+$/, '');
    }
    if (c === MARK.varQuoted || c === MARK.subQuoted) {
      current += value;
      kept = true;
    } else split(value);
  }
  if (kept || current !== '') fields.push(current);
  return { fields, stderr };
}
