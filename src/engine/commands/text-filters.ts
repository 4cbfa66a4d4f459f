/**
 * The few coreutils filters the textbook pipes into (`| head -n 5`, `| wc -l`), plus `echo` and
 * `cat` (grep is in grep.ts). Messages and exit statuses are
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
  registerCommand(registry, 'head', head);
  registerCommand(registry, 'tail', tail);
  registerCommand(registry, 'wc', wc);
  registerCommand(registry, 'echo', echo);
  registerCommand(registry, 'cat', cat);
}
