/**
 * The coreutils a learner counts answers with: `for i in $(seq 1 100); do curl -s …; done |
 * cut -d' ' -f1 | sort | uniq -c`. GNU coreutils 9.1 (Debian bookworm) in the C.UTF-8 locale
 * (byte order, ‘…’ quotes in messages): `seq [-s SEP] [-w] [FIRST [INCR]] LAST`, `sort [-bnrsu]
 * [-t C] [-k KEYDEF]…`, `uniq [-cdu]`, `cut -d C -f LIST [-s]` and `cut -c LIST`. Texts and
 * statuses are the real tools' (tests/kernel/text-tools.test.ts runs both).
 */
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { splitLines } from './text-filters';
import { labNote } from '../model/lab-notes';

const out = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const usage = (tool: string, message: string, exitCode = 1): CommandResult => ({
  stdout: '',
  stderr: `${tool}: ${message}\nTry '${tool} --help' for more information.\n`,
  exitCode,
});
const joinLines = (lines: readonly string[]) => lines.map((l) => `${l}\n`).join('');

/** Each tool's real short options (coreutils 9.1's getopt strings), modelled or not. */
const REAL: Readonly<Record<string, string>> = {
  seq: 'f:s:w',
  sort: 'bcCdfghik:mMno:RrsS:t:T:uVy:z',
  uniq: 'cdDf:is:uw:z',
  cut: 'b:c:d:f:nsz',
};

/**
 * Short options as getopt reads them: flags, and the letters that take a value. A real option
 * the lab does not model gets a lab note (exit `exitCode`), an unknown one getopt's complaint.
 */
function options(
  tool: string,
  argv: readonly string[],
  flags: string,
  valued: string,
  exitCode = 1,
): { opts: [string, string][]; rest: string[] } | CommandResult {
  const opts: [string, string][] = [];
  const rest: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    // seq reads `-1` as a number, not an option.
    if (a === '--') {
      for (const operand of argv.slice(i + 1)) rest.push(operand);
      break;
    }
    if (!a.startsWith('-') || a === '-' || (tool === 'seq' && /^-\d/.test(a))) {
      rest.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const o = a[j]!;
      if (valued.includes(o)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : argv[++i];
        if (v === undefined) return usage(tool, `option requires an argument -- '${o}'`, exitCode);
        opts.push([o, v]);
        break;
      }
      if (!flags.includes(o)) {
        if (REAL[tool]?.includes(o)) return { stdout: '', stderr: labNote('tool.option', { tool, option: o }), exitCode }; // prettier-ignore
        return usage(tool, `invalid option -- '${o}'`, exitCode);
      }
      opts.push([o, '']);
    }
  }
  return { opts, rest };
}

/** The value of the last `-o VALUE` (an option given twice counts once, the last time). */
function lastValue(opts: readonly [string, string][], o: string): string | undefined {
  let v: string | undefined;
  for (const [x, value] of opts) if (x === o) v = value;
  return v;
}

/** The most numbers the lab's seq prints (`seq 1000000` is 6.9 MB of output). */
export const MAX_SEQ_NUMBERS = 1_000_000;

function seq(_ctx: CommandContext, argv: string[]): CommandResult {
  const parsed = options('seq', argv, 'w', 's');
  if ('exitCode' in parsed) return parsed;
  const nums = parsed.rest;
  if (nums.length === 0) return usage('seq', 'missing operand');
  if (nums.length > 3) return usage('seq', `extra operand ‘${nums[3]}’`);
  for (const n of nums)
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(n)) return usage('seq', `invalid floating point argument: ‘${n}’`); // prettier-ignore
  const [first, incr, last] =
    nums.length === 1 ? ['1', '1', nums[0]!] : nums.length === 2 ? [nums[0]!, '1', nums[1]!] : [nums[0]!, nums[1]!, nums[2]!]; // prettier-ignore
  if (Number(incr) === 0) return usage('seq', `invalid Zero increment value: ‘${incr}’`);
  // Printed with as many decimals as FIRST or INCR has (LAST's do not count).
  const decimals = Math.max(...[first, incr].map((n) => (n.includes('.') ? n.length - n.indexOf('.') - 1 : 0))); // prettier-ignore
  const a = Number(first);
  const step = Number(incr);
  const b = Number(last);
  const values: string[] = [];
  for (let k = 0; values.length <= MAX_SEQ_NUMBERS; k++) {
    const v = a + k * step;
    if (step > 0 ? v > b + 1e-9 : v < b - 1e-9) break;
    values.push(v.toFixed(decimals));
  }
  // GNU seq prints any count; the lab holds its output in memory, so it refuses rather than
  // print a silently shortened sequence.
  if (values.length > MAX_SEQ_NUMBERS)
    return { stdout: '', stderr: labNote('seq.limit', { max: MAX_SEQ_NUMBERS, operands: nums.join(' ') }), exitCode: 1 }; // prettier-ignore
  const sep = lastValue(parsed.opts, 's') ?? '\n';
  const wide = parsed.opts.some(([o]) => o === 'w');
  // A loop, not Math.max(...values): 300,000 arguments overflow the stack.
  let width = 0;
  for (const v of values) width = Math.max(width, v.length);
  const shown = wide ? values.map((v) => (v.startsWith('-') ? `-${v.slice(1).padStart(width - 1, '0')}` : v.padStart(width, '0'))) : values; // prettier-ignore
  return out(shown.length === 0 ? '' : `${shown.join(sep)}\n`);
}

interface Key {
  readonly start: number;
  readonly end: number | undefined;
  readonly numeric: boolean;
  readonly reverse: boolean;
}

/** The fields of a line: `sep`-separated, or (none) each with the blanks before it. */
function fields(line: string, sep: string | undefined): string[] {
  if (sep !== undefined) return line.split(sep);
  return line.match(/[ \t]*[^ \t]+|[ \t]+$/g) ?? [''];
}

function keyText(line: string, key: Key, sep: string | undefined): string {
  const f = fields(line, sep);
  const end = key.end ?? f.length;
  return f.slice(key.start - 1, end).join(sep ?? '');
}

/** sort -n's value: leading blanks, a sign, digits and a fraction; anything else is 0. */
function numericValue(text: string): number {
  const m = /^[ \t]*(-?\d*\.?\d*)/.exec(text)?.[1] ?? '';
  const v = Number(m);
  return m === '' || m === '-' || m === '.' || Number.isNaN(v) ? 0 : v;
}

const byteCompare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function sort(ctx: CommandContext, argv: string[]): CommandResult {
  const parsed = options('sort', argv, 'nrsub', 'tk', 2);
  if ('exitCode' in parsed) return parsed;
  const has = (o: string) => parsed.opts.some(([x]) => x === o);
  const numeric = has('n');
  const reverse = has('r');
  const sep = lastValue(parsed.opts, 't');
  if (sep !== undefined && sep.length !== 1)
    return { stdout: '', stderr: 'sort: multi-character tab ‘' + sep + '’\n', exitCode: 2 };
  const keys: Key[] = [];
  for (const [o, v] of parsed.opts) {
    if (o !== 'k') continue;
    const bad = (why: string) => ({ stdout: '', stderr: `sort: ${why}\n`, exitCode: 2 });
    if (!/^\d/.test(v)) return bad(`invalid number at field start: invalid count at start of ‘${v}’`); // prettier-ignore
    const m = /^(\d+)([a-zA-Z]*)(?:,(\d+)([a-zA-Z]*))?$/.exec(v);
    if (m === null) {
      // KEYDEF's `.C` (a character within the field) is not modelled; anything else is stray.
      if (/^\d+(\.\d+)?[a-zA-Z]*(,\d+(\.\d+)?[a-zA-Z]*)?$/.test(v)) return { stdout: '', stderr: labNote('tool.option', { tool: 'sort', option: `k ${v}` }), exitCode: 2 }; // prettier-ignore
      return bad(`stray character in field spec: invalid field specification ‘${v}’`);
    }
    if (m[1] === '0') return bad(`field number is zero: invalid field specification ‘${v}’`);
    const flags = (m[2] ?? '') + (m[4] ?? '');
    const other = [...flags].find((f) => !'bnr'.includes(f));
    if (other !== undefined) {
      if ('dfgiMhRV'.includes(other)) return { stdout: '', stderr: labNote('tool.option', { tool: 'sort', option: `k ${v}` }), exitCode: 2 }; // prettier-ignore
      return bad(`stray character in field spec: invalid field specification ‘${v}’`);
    }
    const own = flags !== '';
    keys.push({
      start: Number(m[1]),
      end: m[3] === undefined ? undefined : Number(m[3]),
      numeric: own ? flags.includes('n') : numeric,
      reverse: own ? flags.includes('r') : reverse,
    });
  }
  if (keys.length === 0) keys.push({ start: 1, end: undefined, numeric, reverse });
  // -b: a key's leading blanks do not count.
  const text = (l: string, k: Key) => (has('b') ? keyText(l, k, sep).replace(/^[ \t]+/, '') : keyText(l, k, sep)); // prettier-ignore
  const compareKeys = (a: string, b: string): number => {
    for (const k of keys) {
      const x = text(a, k);
      const y = text(b, k);
      const c = k.numeric ? Math.sign(numericValue(x) - numericValue(y)) : byteCompare(x, y);
      if (c !== 0) return k.reverse ? -c : c;
    }
    return 0;
  };
  const lines = splitLines(ctx.stdin);
  const unique = has('u');
  // The last-resort comparison of whole lines, unless -s or -u.
  const lastResort = !has('s') && !unique;
  const sorted = [...lines].sort((a, b) => compareKeys(a, b) || (lastResort ? (reverse ? -1 : 1) * byteCompare(a, b) : 0)); // prettier-ignore
  const kept = unique ? sorted.filter((l, i) => i === 0 || compareKeys(sorted[i - 1]!, l) !== 0) : sorted; // prettier-ignore
  return out(joinLines(kept));
}

function uniq(ctx: CommandContext, argv: string[]): CommandResult {
  const parsed = options('uniq', argv, 'cdu', '');
  if ('exitCode' in parsed) return parsed;
  const has = (o: string) => parsed.opts.some(([x]) => x === o);
  const groups: [string, number][] = [];
  for (const line of splitLines(ctx.stdin)) {
    const last = groups.at(-1);
    if (last !== undefined && last[0] === line) last[1]++;
    else groups.push([line, 1]);
  }
  const shown = groups.filter(([, n]) => (has('d') ? n > 1 : true) && (has('u') ? n === 1 : true));
  return out(joinLines(shown.map(([l, n]) => (has('c') ? `${String(n).padStart(7)} ${l}` : l))));
}

/** A cut LIST (`1,3`, `2-`, `-3`, `1-2`) as a test of 1-based positions. */
function cutList(list: string): ((n: number) => boolean) | string {
  const ranges: [number, number][] = [];
  for (const part of list.split(',')) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (m === null || (m[1] === '' && m[3] === '')) return `invalid byte, character or field list`; // prettier-ignore
    if (m[1] === '0' || m[3] === '0') return 'fields are numbered from 1';
    const from = m[1] === '' ? 1 : Number(m[1]);
    const to = m[2] === '' ? from : m[3] === '' ? Infinity : Number(m[3]);
    if (to < from) return 'invalid decreasing range';
    ranges.push([from, to]);
  }
  return (n) => ranges.some(([a, b]) => n >= a && n <= b);
}

function cut(ctx: CommandContext, argv: string[]): CommandResult {
  const parsed = options('cut', argv, 's', 'dfc');
  if ('exitCode' in parsed) return parsed;
  const value = (o: string) => lastValue(parsed.opts, o);
  const f = value('f');
  const c = value('c');
  const d = value('d') ?? '\t';
  if (f === undefined && c === undefined)
    return usage('cut', 'you must specify a list of bytes, characters, or fields');
  if (f !== undefined && c !== undefined) return usage('cut', 'only one list may be specified');
  if (d.length !== 1) return usage('cut', 'the delimiter must be a single character');
  const pick = cutList(f ?? c!);
  if (typeof pick === 'string') return usage('cut', pick);
  const onlyDelimited = parsed.opts.some(([o]) => o === 's');
  const lines: string[] = [];
  for (const line of splitLines(ctx.stdin)) {
    if (c !== undefined) lines.push([...line].filter((_, i) => pick(i + 1)).join(''));
    else if (!line.includes(d)) {
      if (!onlyDelimited) lines.push(line);
    } else
      lines.push(
        line
          .split(d)
          .filter((_, i) => pick(i + 1))
          .join(d),
      );
  }
  return out(joinLines(lines));
}

export function registerTextTools(registry: CommandRegistry): void {
  registerCommand(registry, 'seq', seq);
  registerCommand(registry, 'sort', sort);
  registerCommand(registry, 'uniq', uniq);
  registerCommand(registry, 'cut', cut);
}
