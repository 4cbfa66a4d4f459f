/**
 * awk as mawk 1.3.4 (Debian's awk) runs the programs a learner pipes answers through:
 * `awk [-F SEP] [-v VAR=VALUE] 'PROGRAM' [FILE…]` with the whole language but for what
 * touches the world outside the pipe: output to files or commands, getline from them,
 * system(), rand()/srand(), ENVIRON/ARGV. A program using those says so (a lab note) rather
 * than run differently. tests/kernel/awk-mawk.test.ts compares it with the real mawk.
 */
import { labNote } from '../model/lab-notes';
import { fromBytes, toBytes } from './awk-bytes';
import { AwkSyntaxError, Unsupported } from './awk-lex';
import type { Program } from './awk-ast';
import { parseAwk } from './awk-parse';
import { runAwk, STEP_LIMIT, type AwkSource } from './awk-run';
import { missingFileMessage } from './files';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { splitLines } from './text-filters';

/** mawk reads escapes in -F and -v values (`-F'\t'` is a tab; `-Ft` is the letter t). */
function escapes(v: string): string {
  return v.replace(/\\(.)/g, (m, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === '\\' ? '\\' : m)); // prettier-ignore
}

function awk(ctx: CommandContext, argv: string[]): CommandResult {
  const r = awkBytes(ctx, argv.map(toBytes));
  return { ...r, stdout: fromBytes(r.stdout), stderr: fromBytes(r.stderr) };
}

function awkBytes(ctx: CommandContext, argv: string[]): CommandResult {
  const name = argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1);
  let fs = ' ';
  const assigned: [string, string][] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    if (a.startsWith('-F') || a.startsWith('-v')) {
      const v = a.length > 2 ? a.slice(2) : argv[++i];
      if (v === undefined) return { stdout: '', stderr: `${name}: option ${a.slice(0, 2)} lacks argument\n`, exitCode: 2 }; // prettier-ignore
      if (a.startsWith('-F')) fs = escapes(v);
      else {
        const m = /^([A-Za-z_]\w*)=(.*)$/s.exec(v);
        if (m === null) return { stdout: '', stderr: `${name}: improper assignment: -v ${v}\n`, exitCode: 2 }; // prettier-ignore
        assigned.push([m[1]!, escapes(m[2]!)]);
      }
    } else return { stdout: '', stderr: labNote('tool.option', { tool: 'awk', option: a.slice(1) }), exitCode: 2 }; // prettier-ignore
  }
  const source = argv[i];
  if (source === undefined) return { stdout: '', stderr: labNote('awk.program'), exitCode: 2 };
  let program: Program;
  try {
    program = parseAwk(source);
  } catch (err) {
    if (err instanceof AwkSyntaxError) return { stdout: '', stderr: err.message.split('\n').map((l) => `${name}: ${l}\n`).join(''), exitCode: 2 }; // prettier-ignore
    if (err instanceof Unsupported) return { stdout: '', stderr: labNote('awk.program'), exitCode: 2 }; // prettier-ignore
    throw err;
  }
  const operands = argv.slice(i + 1);
  const sources: AwkSource[] = [];
  // An operand NAME=value is an assignment made when the input reaches it, not a file.
  const assignment = (a: string) => /^([A-Za-z_]\w*)=(.*)$/s.exec(a);
  const files = operands.filter((a) => assignment(a) === null);
  for (const f of files.length === 0 ? [...operands, '-'] : operands) {
    const m = assignment(f);
    if (m !== null) {
      sources.push({ file: '', lines: [], assign: [m[1]!, escapes(m[2]!)] });
      continue;
    }
    const text = f === '-' ? ctx.stdin : ctx.world.readFile(fromBytes(f));
    if (text === undefined)
      return { stdout: '', stderr: missingFileMessage(f, `${name}: cannot open ${f} (No such file or directory)\n`), exitCode: 2 }; // prettier-ignore
    sources.push({ file: f, lines: splitLines(toBytes(text)) });
  }
  try {
    // mawk reads records separated by RS; the lab reads lines only.
    if (assigned.some(([k]) => k === 'RS')) throw new Unsupported();
    const r = runAwk(program, sources, fs, assigned);
    if (r.runaway === true) return { stdout: r.stdout, stderr: r.stderr + labNote('awk.runaway', { steps: STEP_LIMIT }), exitCode: 130 }; // prettier-ignore
    if (r.fatal !== undefined) return { stdout: r.stdout, stderr: `${r.stderr}${name}: ${r.fatal}\n`, exitCode: 2 }; // prettier-ignore
    if (r.error !== undefined)
      return { stdout: r.stdout, stderr: `${r.stderr}${name}: run time error: ${r.error}\n`, exitCode: 2 }; // prettier-ignore
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  } catch (err) {
    // A regex made at run time (`$1 ~ "["`, a long FS) that the lab cannot read as mawk would.
    if (err instanceof Unsupported) return { stdout: '', stderr: labNote('awk.program'), exitCode: 2 }; // prettier-ignore
    throw err;
  }
}

export function registerAwk(registry: CommandRegistry): void {
  registerCommand(registry, 'awk', awk);
  registerCommand(registry, 'mawk', awk);
}
