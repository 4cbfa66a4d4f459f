/**
 * The few coreutils/grep filters the textbook pipes into (`… | grep mode`, `conntrack -L | grep
 * 10.96.0.10`, `| head -n 5`, `| wc -l`), plus `echo` and `cat`. Messages and exit statuses are
 * GNU grep 3.8 / coreutils 9.1's (Debian bookworm) in a UTF-8 locale (hence ‘…’ quotes).
 */
import type { CommandContext, CommandResult, CommandRegistry } from './registry';
import { registerCommand } from './registry';
import { missingFileMessage } from './files';

const ok = (stdout: string, exitCode = 0): CommandResult => ({ stdout, stderr: '', exitCode });
const fail = (stderr: string, exitCode: number): CommandResult => ({
  stdout: '',
  stderr,
  exitCode,
});

/** Input split into lines the way line-oriented tools see it (a final newline ends the last line). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}
const joinLines = (lines: readonly string[]): string => lines.map((l) => `${l}\n`).join('');

const BRACKET_CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: '0-9a-zA-Z',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
};

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
      out += BRACKET_CLASSES[cls[1] ?? ''] ?? '';
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
  const patterns: string[] = [];
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') {
      operands.push(...argv.slice(i + 1));
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
      };
      const f = long[a];
      if (f === undefined) return fail(`grep: unrecognized option '${a}'\n${GREP_USAGE}`, 2);
      flags.add(f);
    } else if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const f = a.charAt(k);
        if (f === 'e') {
          const rest = a.slice(k + 1);
          const p = rest !== '' ? rest : argv[++i];
          if (p === undefined)
            return fail(`grep: option requires an argument -- 'e'\n${GREP_USAGE}`, 2);
          patterns.push(p);
          break;
        }
        if (!'vicEFGqnwsyz'.includes(f))
          return fail(`grep: invalid option -- '${f}'\n${GREP_USAGE}`, 2);
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
  const selected: string[] = [];
  splitLines(input).forEach((line, idx) => {
    if (regexes.some((r) => r.test(line)) !== invert)
      selected.push(flags.has('n') ? `${idx + 1}:${line}` : line);
  });
  let stdout = flags.has('c') ? `${selected.length}\n` : joinLines(selected);
  if (flags.has('q')) stdout = '';
  return {
    stdout,
    stderr,
    exitCode: status === 2 && selected.length === 0 ? 2 : selected.length > 0 ? 0 : 1,
  };
}

/** Parses head/tail's line count: `-n N`, `-nN`, `--lines=N`, `-N`; returns the last one given. */
function lineCount(
  tool: string,
  argv: string[],
): { count: string; files: string[] } | CommandResult {
  let count = '10';
  const files: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '-n' || a === '--lines') {
      const v = argv[++i];
      if (v === undefined)
        return fail(
          `${tool}: option requires an argument -- 'n'\nTry '${tool} --help' for more information.\n`,
          1,
        );
      count = v;
    } else if (a.startsWith('--lines=')) count = a.slice(8);
    else if (a.startsWith('-n')) count = a.slice(2);
    else if (/^-\d+$/.test(a)) count = a.slice(1);
    else if (a.startsWith('-') && a !== '-') {
      return fail(
        `${tool}: invalid option -- '${a.charAt(1)}'\nTry '${tool} --help' for more information.\n`,
        1,
      );
    } else files.push(a);
  }
  if (!/^[+-]?\d+$/.test(count)) return fail(`${tool}: invalid number of lines: ‘${count}’\n`, 1);
  return { count, files };
}

function head(ctx: CommandContext, argv: string[]): CommandResult {
  const parsed = lineCount('head', argv);
  if ('exitCode' in parsed) return parsed;
  const lines = splitLines(ctx.stdin);
  const n = Number(parsed.count);
  // GNU head: -n -K prints all but the last K lines.
  return ok(
    joinLines(
      parsed.count.startsWith('-')
        ? lines.slice(0, Math.max(0, lines.length + n))
        : lines.slice(0, n),
    ),
  );
}

function tail(ctx: CommandContext, argv: string[]): CommandResult {
  const parsed = lineCount('tail', argv);
  if ('exitCode' in parsed) return parsed;
  const lines = splitLines(ctx.stdin);
  const n = Math.abs(Number(parsed.count));
  // GNU tail: -n +K starts at line K.
  if (parsed.count.startsWith('+')) return ok(joinLines(lines.slice(Math.max(0, n - 1))));
  return ok(joinLines(n === 0 ? [] : lines.slice(-n)));
}

function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

function wc(ctx: CommandContext, argv: string[]): CommandResult {
  let which = argv
    .slice(1)
    .filter((a) => a.startsWith('-'))
    .join('')
    .replace(/-/g, '');
  if (which === '') which = 'lwc';
  const text = ctx.stdin;
  const counts: number[] = [];
  if (which.includes('l')) counts.push((text.match(/\n/g) ?? []).length);
  if (which.includes('w')) counts.push(text.split(/\s+/).filter((w) => w !== '').length);
  if (which.includes('c')) counts.push(utf8Length(text));
  // coreutils wc: one count from stdin prints unpadded; several are right-aligned in width 7.
  if (counts.length === 1) return ok(`${counts[0] ?? 0}\n`);
  return ok(`${counts.map((c) => String(c).padStart(7)).join(' ')}\n`);
}

function echo(_ctx: CommandContext, argv: string[]): CommandResult {
  const args = argv.slice(1);
  const noNewline = args[0] === '-n';
  return ok(`${(noNewline ? args.slice(1) : args).join(' ')}${noNewline ? '' : '\n'}`);
}

function cat(ctx: CommandContext, argv: string[]): CommandResult {
  const files = argv.slice(1);
  if (files.length === 0) return ok(ctx.stdin);
  let stdout = '';
  let stderr = '';
  for (const f of files) {
    const text = f === '-' ? ctx.stdin : ctx.world.readFile(f);
    if (text === undefined)
      stderr += missingFileMessage(f, `cat: ${f}: No such file or directory\n`);
    else stdout += text;
  }
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

export function registerTextFilters(registry: CommandRegistry): void {
  registerCommand(registry, 'grep', grep);
  registerCommand(registry, 'head', head);
  registerCommand(registry, 'tail', tail);
  registerCommand(registry, 'wc', wc);
  registerCommand(registry, 'echo', echo);
  registerCommand(registry, 'cat', cat);
}
