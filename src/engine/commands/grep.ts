/**
 * GNU grep 3.8 (Debian bookworm) in a UTF-8 locale, as the textbook pipes into it (`… | grep
 * mode`, `conntrack -L | grep 10.96.0.10`, `iptables-save | grep -oE 'KUBE-SEP-[A-Z0-9]+'`):
 * basic and extended regular expressions translated to JavaScript's, fixed strings, -i -v -c -q
 * -n -w -x -o -m NUM -e, context (-A, -B, -C NUM, -NUM: `--` between groups, `N-` for context
 * lines with -n), messages and statuses as grep's. Its other real options say they are not
 * modelled.
 */
import { labNote } from '../model/lab-notes';
import { missingFileMessage } from './files';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { splitLines } from './text-filters';
import { POSIX_CLASSES } from './posix-classes';

const fail = (stderr: string, exitCode: number): CommandResult => ({
  stdout: '',
  stderr,
  exitCode,
});
const joinLines = (lines: readonly string[]): string => lines.map((l) => `${l}\n`).join('');

/** grep 3.8's short options (its getopt string), modelled or not. */
const REAL_SHORT = '0123456789ABCDEFGHILNPRTUVXZabcdefhilmnoqrsuvwxyz';

/** Converts a POSIX bracket expression starting at `re[i]` ('[') to JS; returns [js, nextIndex]. */
function bracket(re: string, i: number): [string, number] {
  let j = i + 1;
  let out = '[';
  if (re.charAt(j) === '^') {
    out += '^';
    j++;
  }
  let first = true;
  while (j < re.length && (first || re.charAt(j) !== ']')) {
    first = false;
    const cls = /^\[:([a-z]+):\]/.exec(re.slice(j));
    if (cls !== null) {
      out += POSIX_CLASSES[cls[1] ?? ''] ?? '';
      j += cls[0].length;
      continue;
    }
    const ch = re.charAt(j);
    out += ch === '\\' || ch === ']' || ch === '[' ? `\\${ch}` : ch;
    j++;
  }
  if (j >= re.length) return ['\\[', i + 1]; // GNU grep: "Unmatched [" — treated literally here
  return [`${out}]`, j + 1];
}

/** GNU grep basic (BRE) or extended (ERE) regular expression → JavaScript RegExp source. */
export function posixToJs(re: string, extended: boolean): string {
  let out = '';
  for (let i = 0; i < re.length;) {
    const c = re.charAt(i);
    if (c === '[') {
      const [js, next] = bracket(re, i);
      out += js;
      i = next;
    } else if (c === '\\' && i + 1 < re.length) {
      const n = re.charAt(i + 1);
      if (!extended && '(){}|+?'.includes(n))
        out += n; // GNU BRE extensions: \( \) \{ \} \| \+ \?
      else if ('wWsSbB<>'.includes(n)) out += n === '<' || n === '>' ? '\\b' : `\\${n}`;
      else out += /[a-zA-Z]/.test(n) ? n : `\\${n}`; // \. \* \[ … are literals; \1 a backreference
      i += 2;
    } else if (!extended && '(){}|+?'.includes(c)) {
      out += `\\${c}`; // literal in a BRE
      i++;
    } else if (!extended && c === '*' && (out === '' || out.endsWith('(') || out === '^')) {
      out += '\\*'; // a leading * is literal in a BRE
      i++;
    } else {
      out += c === '/' ? '\\/' : c;
      i++;
    }
  }
  return out;
}

const GREP_USAGE =
  "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

function grep(ctx: CommandContext, argv: string[]): CommandResult {
  const flags = new Set<string>();
  /** -m NUM: stop after NUM selected lines (a negative NUM is no limit). */
  let maxCount = -1;
  /** Lines of context after and before each selected line (-1: not given; -C's for both). */
  const context = { A: -1, B: -1, C: -1, digits: '' };
  const contextArg = (letter: 'A' | 'B' | 'C', v: string): CommandResult | undefined => {
    if (!/^\d+$/.test(v)) return fail(`grep: ${v}: invalid context length argument\n`, 2);
    context[letter] = Number(v);
    return undefined;
  };
  const patterns: string[] = [];
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') {
      for (const operand of argv.slice(i + 1)) operands.push(operand);
      break;
    }
    if (a.startsWith('--')) {
      const long: Record<string, string> = {
        '--invert-match': 'v',
        '--ignore-case': 'i',
        '--count': 'c',
        '--extended-regexp': 'E',
        '--fixed-strings': 'F',
        '--quiet': 'q',
        '--silent': 'q',
        '--line-number': 'n',
        '--word-regexp': 'w',
        '--line-regexp': 'x',
        '--only-matching': 'o',
      };
      const eq = a.indexOf('=');
      const ctx = { '--after-context': 'A', '--before-context': 'B', '--context': 'C' }[eq < 0 ? a : a.slice(0, eq)] as 'A' | 'B' | 'C' | undefined; // prettier-ignore
      if (ctx !== undefined) {
        const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) return fail(`grep: option '${a}' requires an argument\n${GREP_USAGE}`, 2); // prettier-ignore
        const bad = contextArg(ctx, v);
        if (bad !== undefined) return bad;
        continue;
      }
      const f = long[a];
      if (f === undefined) return fail(`grep: unrecognized option '${a}'\n${GREP_USAGE}`, 2);
      flags.add(f);
    } else if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const f = a.charAt(k);
        if (f === 'm') {
          const rest = a.slice(k + 1);
          const v = rest !== '' ? rest : argv[++i];
          if (v === undefined) return fail(`grep: option requires an argument -- 'm'\n${GREP_USAGE}`, 2); // prettier-ignore
          if (!/^-?\d+$/.test(v)) return fail(`grep: invalid max count\n`, 2);
          maxCount = Number(v);
          break;
        }
        if (f === 'A' || f === 'B' || f === 'C') {
          const rest = a.slice(k + 1);
          const v = rest !== '' ? rest : argv[++i];
          if (v === undefined) return fail(`grep: option requires an argument -- '${f}'\n${GREP_USAGE}`, 2); // prettier-ignore
          const bad = contextArg(f, v);
          if (bad !== undefined) return bad;
          break;
        }
        if (/\d/.test(f)) {
          // -NUM: --context=NUM (its digits read together, as grep's digit_args_val).
          context.digits = k > 1 && /\d/.test(a.charAt(k - 1)) ? context.digits + f : f;
          context.C = Number(context.digits);
          continue;
        }
        if (f === 'e') {
          const rest = a.slice(k + 1);
          const p = rest !== '' ? rest : argv[++i];
          if (p === undefined)
            return fail(`grep: option requires an argument -- 'e'\n${GREP_USAGE}`, 2);
          patterns.push(p);
          break;
        }
        if (!'vicEFGqnwxosyz'.includes(f)) {
          if (REAL_SHORT.includes(f)) return fail(labNote('tool.option', { tool: 'grep', option: f }), 2); // prettier-ignore
          return fail(`grep: invalid option -- '${f}'\n${GREP_USAGE}`, 2);
        }
        flags.add(f === 'y' ? 'i' : f);
      }
    } else operands.push(a);
  }
  if (patterns.length === 0) {
    const p = operands.shift();
    if (p === undefined) return fail(GREP_USAGE, 2);
    patterns.push(p);
  }
  const sources = patterns
    .flatMap((p) => p.split('\n'))
    .map((p) => {
      let src = flags.has('F')
        ? p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
        : posixToJs(p, flags.has('E'));
      if (flags.has('w')) src = `(?<![\\w])(?:${src})(?![\\w])`;
      if (flags.has('x')) src = `^(?:${src})$`;
      return src;
    });
  let regexes: RegExp[];
  try {
    regexes = sources.map((s) => new RegExp(s, flags.has('i') ? 'i' : ''));
  } catch {
    return fail('grep: Unmatched ( or \\(\n', 2);
  }
  let input = ctx.stdin;
  let stderr = '';
  let status = 0;
  if (operands.length > 0) {
    input = '';
    for (const file of operands) {
      const text = ctx.world.readFile(file);
      if (text === undefined) {
        stderr += missingFileMessage(file, `grep: ${file}: No such file or directory\n`);
        status = 2;
      } else input += text.endsWith('\n') || text === '' ? text : `${text}\n`;
    }
  }
  const invert = flags.has('v');
  const lines = splitLines(input);
  const chosen: number[] = [];
  for (const [idx, line] of lines.entries()) {
    if (maxCount >= 0 && chosen.length >= maxCount) break;
    if (regexes.some((r) => r.test(line)) !== invert) chosen.push(idx);
  }
  const any = new RegExp(sources.map((x) => `(?:${x})`).join('|'), flags.has('i') ? 'gi' : 'g');
  const after = context.A >= 0 ? context.A : Math.max(context.C, 0);
  const before = context.B >= 0 ? context.B : Math.max(context.C, 0);
  const withContext = context.A >= 0 || context.B >= 0 || context.C >= 0;
  let stdout = '';
  if (flags.has('c')) stdout = `${chosen.length}\n`;
  else if (!flags.has('q'))
    stdout = joinLines(outputLines(lines, chosen, { after, before, withContext, any, only: flags.has('o'), numbers: flags.has('n') })); // prettier-ignore
  const selected = chosen;
  return {
    stdout,
    stderr,
    exitCode: status === 2 && selected.length === 0 ? 2 : selected.length > 0 ? 0 : 1,
  };
}

/**
 * The lines grep prints: each selected line (`N:` with -n), the context around it (`N-`),
 * and `--` between groups that do not touch when a context option was given (even 0). With
 * -o a selected line prints its matches and context lines print nothing, though they still
 * join groups. After -m's last line its trailing context is printed too.
 */
function outputLines(
  lines: readonly string[],
  chosen: readonly number[],
  o: { after: number; before: number; withContext: boolean; any: RegExp; only: boolean; numbers: boolean }, // prettier-ignore
): string[] {
  const isChosen = new Set(chosen);
  const shown = new Set<number>();
  for (const i of chosen)
    for (let j = Math.max(0, i - o.before); j <= Math.min(lines.length - 1, i + o.after); j++) shown.add(j); // prettier-ignore
  const out: string[] = [];
  let last = -1;
  for (const i of [...shown].sort((a, b) => a - b)) {
    if (o.withContext && last >= 0 && i > last + 1) out.push('--');
    last = i;
    const line = lines[i]!;
    const prefix = o.numbers ? `${i + 1}${isChosen.has(i) ? ':' : '-'}` : '';
    if (!o.only) out.push(prefix + line);
    else if (isChosen.has(i))
      for (const m of line.matchAll(o.any)) if (m[0] !== '') out.push(prefix + m[0]);
  }
  return out;
}

export function registerGrep(registry: CommandRegistry): void {
  registerCommand(registry, 'grep', grep);
}
