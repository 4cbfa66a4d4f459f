/**
 * The awk a learner pipes answers through: `awk [-F SEP] '{print ITEM…}' [FILE…]`, as mawk 1.3.4
 * (Debian's awk) runs it. An item is a concatenation of `$N`, `$NF`, `$0`, `NR`, `NF` and
 * "strings"; items separated by commas are printed with OFS (a space). Fields are split on runs
 * of blanks (the default FS), or on one character given with -F. Any other program is not
 * modelled and says so (tests/kernel/text-tools.test.ts compares the rest with the real awk).
 */
import { labNote } from '../model/lab-notes';
import { missingFileMessage } from './files';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { splitLines } from './text-filters';

/** One piece of a printed item. */
type Piece =
  | { readonly kind: 'field'; readonly n: number | 'NF' }
  | { readonly kind: 'var'; readonly name: 'NR' | 'NF' }
  | { readonly kind: 'text'; readonly text: string };

/** `{print …}`'s items, or undefined for a program the lab does not run. */
function parseProgram(program: string): Piece[][] | undefined {
  const m = /^\s*\{\s*print\b(.*?)\s*;?\s*\}\s*$/s.exec(program);
  if (m === null) return undefined;
  const body = m[1]!.trim();
  if (body === '') return [[{ kind: 'field', n: 0 }]];
  const items: Piece[][] = [[]];
  const token = /\s*(?:\$(\d+|NF)|(NR|NF)\b|"((?:[^"\\]|\\.)*)"|(,))/y;
  for (let at = 0; at < body.length;) {
    token.lastIndex = at;
    const t = token.exec(body);
    if (t === null) return undefined;
    at = token.lastIndex;
    if (t[4] !== undefined) items.push([]);
    else {
      const item = items[items.length - 1]!;
      if (t[1] !== undefined) item.push({ kind: 'field', n: t[1] === 'NF' ? 'NF' : Number(t[1]) });
      else if (t[2] !== undefined) item.push({ kind: 'var', name: t[2] as 'NR' | 'NF' });
      else item.push({ kind: 'text', text: t[3]!.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c)) }); // prettier-ignore
    }
  }
  return items.some((i) => i.length === 0) ? undefined : items;
}

function fieldsOf(line: string, fs: string): string[] {
  if (fs === ' ') return line.split(/[ \t\n]+/).filter((f) => f !== '');
  return line.split(fs);
}

function awk(ctx: CommandContext, argv: string[]): CommandResult {
  const name = argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1);
  let fs = ' ';
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    if (a.startsWith('-F')) {
      const v = a.length > 2 ? a.slice(2) : argv[++i];
      if (v === undefined) return { stdout: '', stderr: `${name}: option -F lacks argument\n`, exitCode: 2 }; // prettier-ignore
      // mawk reads escapes in -F (`-F'\t'` is a tab; `-Ft` is the letter t).
      fs = v === '\\t' ? '\t' : v;
    } else return { stdout: '', stderr: labNote('tool.option', { tool: 'awk', option: a.slice(1) }), exitCode: 2 }; // prettier-ignore
  }
  const program = argv[i];
  if (program === undefined) return { stdout: '', stderr: labNote('awk.program'), exitCode: 2 };
  const items = parseProgram(program);
  if (items === undefined || fs.length !== 1) return { stdout: '', stderr: labNote('awk.program'), exitCode: 2 }; // prettier-ignore
  const files = argv.slice(i + 1);
  let input = files.length === 0 ? ctx.stdin : '';
  for (const f of files) {
    const text = f === '-' ? ctx.stdin : ctx.world.readFile(f);
    if (text === undefined)
      return { stdout: '', stderr: missingFileMessage(f, `${name}: cannot open ${f} (No such file or directory)\n`), exitCode: 2 }; // prettier-ignore
    input += text;
  }
  let stdout = '';
  splitLines(input).forEach((line, k) => {
    const fields = fieldsOf(line, fs);
    const value = (p: Piece): string => {
      if (p.kind === 'text') return p.text;
      if (p.kind === 'var') return String(p.name === 'NR' ? k + 1 : fields.length);
      const n = p.n === 'NF' ? fields.length : p.n;
      return n === 0 ? line : (fields[n - 1] ?? '');
    };
    stdout += `${items.map((item) => item.map(value).join('')).join(' ')}\n`;
  });
  return { stdout, stderr: '', exitCode: 0 };
}

export function registerAwk(registry: CommandRegistry): void {
  registerCommand(registry, 'awk', awk);
  registerCommand(registry, 'mawk', awk);
}
