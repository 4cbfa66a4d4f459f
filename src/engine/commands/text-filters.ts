/**
 * The few coreutils filters the textbook pipes into (`| head -n 5`, `| wc -l`), plus `echo` and
 * `cat` (grep is in grep.ts). Messages and exit statuses are
 * GNU grep 3.8 / coreutils 9.1's (Debian bookworm) in a UTF-8 locale (hence ‘…’ quotes).
 */
import type { CommandContext, CommandResult, CommandRegistry } from './registry';
import { registerCommand } from './registry';
import { missingFileMessage } from './files';
import { labNote } from '../model/lab-notes';

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
      // coreutils 9.1's other options (-c, -q, -v, -z; tail's -f, -F, -s) are not modelled.
      const letter = a.charAt(1);
      if ((tool === 'head' ? 'cqvz' : 'cfFqsvz').includes(letter))
        return fail(labNote('tool.option', { tool, option: letter }), 1);
      return fail(
        `${tool}: invalid option -- '${letter}'\nTry '${tool} --help' for more information.\n`,
        1,
      );
    } else files.push(a);
  }
  if (!/^[+-]?\d+$/.test(count)) return fail(`${tool}: invalid number of lines: ‘${count}’\n`, 1);
  return { count, files };
}

/**
 * head and tail over stdin or their files: with several files, each one's lines under a
 * `==> FILE <==` header (a blank line between), a missing file reported and skipped.
 */
function eachInput(
  tool: string,
  ctx: CommandContext,
  files: readonly string[],
  take: (text: string) => string,
): CommandResult {
  if (files.length === 0) return ok(take(ctx.stdin));
  let stdout = '';
  let stderr = '';
  let shown = 0;
  for (const f of files) {
    const text = f === '-' ? ctx.stdin : ctx.world.readFile(f);
    if (text === undefined) {
      stderr += missingFileMessage(f, `${tool}: cannot open '${f}' for reading: No such file or directory\n`); // prettier-ignore
      continue;
    }
    if (files.length > 1) stdout += `${shown > 0 ? '\n' : ''}==> ${f === '-' ? 'standard input' : f} <==\n`; // prettier-ignore
    stdout += take(text);
    shown++;
  }
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

function head(ctx: CommandContext, argv: string[]): CommandResult {
  const parsed = lineCount('head', argv);
  if ('exitCode' in parsed) return parsed;
  return eachInput('head', ctx, parsed.files, (text) => headLines(text, parsed.count));
}

function headLines(text: string, count: string): string {
  const lines = splitLines(text);
  const n = Number(count);
  // GNU head: -n -K prints all but the last K lines.
  return joinLines(
    count.startsWith('-') ? lines.slice(0, Math.max(0, lines.length + n)) : lines.slice(0, n),
  );
}

function tail(ctx: CommandContext, argv: string[]): CommandResult {
  const parsed = lineCount('tail', argv);
  if ('exitCode' in parsed) return parsed;
  return eachInput('tail', ctx, parsed.files, (text) => {
    const lines = splitLines(text);
    const n = Math.abs(Number(parsed.count));
    // GNU tail: -n +K starts at line K.
    if (parsed.count.startsWith('+')) return joinLines(lines.slice(Math.max(0, n - 1)));
    return joinLines(n === 0 ? [] : lines.slice(-n));
  });
}

function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/**
 * coreutils 9.1's wc: -l, -w, -m, -c and -L in wc's order, over stdin or files (a `total` line
 * for several). The counts share one width: the digits of the files' total size, at least 7
 * when stdin (not a regular file) is among the inputs, and 1 when one count of one input is
 * printed (compute_number_width). The lab's /proc files are regular files of size 0, as on
 * Linux.
 */
function wc(ctx: CommandContext, argv: string[]): CommandResult {
  let which = '';
  const files: string[] = [];
  for (const a of argv.slice(1)) {
    if (!a.startsWith('-') || a === '-') {
      files.push(a);
      continue;
    }
    for (const f of a.slice(1)) {
      if ('lwmcL'.includes(f)) which += f;
      else if (f === '-')
        return fail(labNote('tool.option', { tool: 'wc', option: a.slice(1) }), 1);
      else return fail(`wc: invalid option -- '${f}'\nTry 'wc --help' for more information.\n`, 1);
    }
  }
  if (which === '') which = 'lwc';
  const order = [...'lwmcL'].filter((f) => which.includes(f));
  const count = (text: string): number[] =>
    order.map((f) =>
      f === 'l'
        ? (text.match(/\n/g) ?? []).length
        : f === 'w'
          ? text.split(/\s+/).filter((w) => w !== '').length
          : f === 'm'
            ? [...text].length
            : f === 'c'
              ? utf8Length(text)
              : Math.max(0, ...splitLines(text).map((l) => [...l].length)),
    );
  const inputs = files.length === 0 ? ['-'] : files;
  const rows: { counts: number[]; name: string }[] = [];
  let stderr = '';
  let regularTotal = 0;
  let minimum = 1;
  for (const f of inputs) {
    const text = f === '-' ? ctx.stdin : ctx.world.readFile(f);
    if (text === undefined) {
      stderr += missingFileMessage(f, `wc: ${f}: No such file or directory\n`);
      continue;
    }
    if (f === '-') minimum = 7;
    else if (!f.startsWith('/proc/')) regularTotal += utf8Length(text);
    rows.push({ counts: count(text), name: files.length === 0 ? '' : f });
  }
  if (inputs.length > 1)
    rows.push({
      counts: order.map((_, k) => rows.reduce((sum, r) => sum + (r.counts[k] ?? 0), 0)),
      name: 'total',
    });
  let width = Math.max(String(regularTotal).length, minimum);
  if (inputs.length === 1 && order.length === 1) width = 1;
  const stdout = rows
    .map(
      (r) =>
        `${r.counts.map((c) => String(c).padStart(width)).join(' ')}${r.name === '' ? '' : ` ${r.name}`}\n`,
    ) // prettier-ignore
    .join('');
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

/** echo -e's backslash escapes (bash's builtin echo); `\c` ends all output. */
function echoEscapes(text: string): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const n = text.charAt(++i);
    const simple: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' }; // prettier-ignore
    if (n === 'c') return { text: out, stop: true };
    if (simple[n] !== undefined) out += simple[n];
    else if (n === '0') {
      const m = /^[0-7]{0,3}/.exec(text.slice(i + 1))![0];
      out += String.fromCharCode(parseInt(m || '0', 8));
      i += m.length;
    } else if (n === 'x' && /^[0-9A-Fa-f]/.test(text.slice(i + 1))) {
      const m = /^[0-9A-Fa-f]{1,2}/.exec(text.slice(i + 1))![0];
      out += String.fromCharCode(parseInt(m, 16));
      i += m.length;
    } else out += `\\${n}`;
  }
  return { text: out, stop: false };
}

/** bash's builtin echo: leading -n, -e, -E (combined too) are options; -e reads escapes. */
function echo(_ctx: CommandContext, argv: string[]): CommandResult {
  const args = argv.slice(1);
  let newline = true;
  let escapes = false;
  let i = 0;
  for (; i < args.length && /^-[neE]+$/.test(args[i]!); i++)
    for (const f of args[i]!.slice(1)) {
      if (f === 'n') newline = false;
      else escapes = f === 'e';
    }
  const text = args.slice(i).join(' ');
  if (!escapes) return ok(`${text}${newline ? '\n' : ''}`);
  const e = echoEscapes(text);
  return ok(`${e.text}${newline && !e.stop ? '\n' : ''}`);
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
  registerCommand(registry, 'head', head);
  registerCommand(registry, 'tail', tail);
  registerCommand(registry, 'wc', wc);
  registerCommand(registry, 'echo', echo);
  registerCommand(registry, 'cat', cat);
}
