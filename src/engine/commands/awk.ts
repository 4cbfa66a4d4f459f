/**
 * awk as mawk 1.3.4 (Debian's awk) runs the programs a learner pipes answers through:
 * `awk [-F SEP] [-v VAR=VALUE] 'PROGRAM' [FILE…]` with pattern-action items (`/KUBE-SEP/ {print
 * $2}`, `NR > 1`, `$3 ~ /tcp/`, `BEGIN`/`END`), print and printf, variables and assignments
 * (`{s += $2} END {print s}`), if/else and next (awk-parse.ts, awk-run.ts). A program using
 * what the lab does not model (arrays, other functions, getline, output redirection…) says so
 * rather than run differently. tests/kernel/text-tools.test.ts compares it with the real awk.
 */
import { labNote } from '../model/lab-notes';
import { Unsupported } from './awk-lex';
import { parseAwk } from './awk-parse';
import { runAwk, type AwkSource } from './awk-run';
import { missingFileMessage } from './files';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { splitLines } from './text-filters';

/** mawk reads escapes in -F and -v values (`-F'\t'` is a tab; `-Ft` is the letter t). */
function escapes(v: string): string {
  return v.replace(/\\(.)/g, (m, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === '\\' ? '\\' : m)); // prettier-ignore
}

function awk(ctx: CommandContext, argv: string[]): CommandResult {
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
  const program = argv[i];
  const items = program === undefined ? undefined : parseAwk(program);
  if (items === undefined) return { stdout: '', stderr: labNote('awk.program'), exitCode: 2 };
  const files = argv.slice(i + 1);
  const sources: AwkSource[] = [];
  for (const f of files.length === 0 ? ['-'] : files) {
    const text = f === '-' ? ctx.stdin : ctx.world.readFile(f);
    if (text === undefined)
      return { stdout: '', stderr: missingFileMessage(f, `${name}: cannot open ${f} (No such file or directory)\n`), exitCode: 2 }; // prettier-ignore
    sources.push({ file: f, lines: splitLines(text) });
  }
  try {
    const r = runAwk(items, sources, fs, assigned);
    if (r.error !== undefined)
      return { stdout: r.stdout, stderr: `${name}: run time error: ${r.error}\n`, exitCode: 2 };
    return { stdout: r.stdout, stderr: '', exitCode: 0 };
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
