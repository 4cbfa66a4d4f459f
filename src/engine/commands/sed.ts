/**
 * GNU sed 4.9 as a learner pipes rules through it: `sed [-n] [-E|-r] [-e SCRIPT]… [SCRIPT]
 * [FILE…]` with the commands of sed-script.ts (`sed -n '/KUBE-SVC-X/p'`, `sed 's/--comment
 * "[^"]*"//'`, `sed -n '1,5p'`, `sed '1d'`). Each line goes through the script, then out unless
 * -n or `d`; a last line without a newline stays without one. Compared with the real sed in
 * tests/kernel/text-tools.test.ts; -i, -f, -s, -z and the commands it does not run say so.
 */
import { labNote } from '../model/lab-notes';
import { missingFileMessage } from './files';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { parseSed, SedError, type Address, type SedCommand } from './sed-script';

/** What GNU sed 4.9 prints on stderr, exit status 1, when it is given no script. */
const USAGE = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the \`l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
`;

/** The `s` command's replacement for one match: `&`, `\1`…`\9`, `\n`, other escapes literal. */
function replacement(repl: string, match: RegExpExecArray): string {
  return repl.replace(/\\(.)|&/gs, (m, c?: string) => {
    if (m === '&') return match[0];
    if (c !== undefined && /[0-9]/.test(c)) return match[Number(c)] ?? '';
    return c === 'n' ? '\n' : c === 't' ? '\t' : (c ?? '');
  });
}

interface Run {
  line: number;
  last: boolean;
  lastRegex: RegExp | undefined;
  out: string;
  quit: 'print' | 'silent' | undefined;
}

function regexOf(re: RegExp | 'last', run: Run): RegExp {
  if (re !== 'last') {
    run.lastRegex = re;
    return re;
  }
  if (run.lastRegex === undefined)
    throw new SedError('-e expression #1, char 0: no previous regular expression');
  return run.lastRegex;
}

function matchesAddress(a: Address, ps: string, run: Run): boolean {
  if (a.k === 'line') return run.line === a.n;
  if (a.k === 'last') return run.last;
  const re = regexOf(a.re, run);
  re.lastIndex = 0;
  return re.test(ps);
}

/** match_address_p(): one address, or a range that stays active until its end matches. */
function selected(cmd: SedCommand, ps: string, run: Run): boolean {
  if (cmd.a1 === undefined) return true;
  if (cmd.a2 === undefined) return matchesAddress(cmd.a1, ps, run);
  const a2 = cmd.a2;
  if (cmd.active) {
    if (a2.k === 'line') {
      if (run.line >= a2.n) cmd.active = false;
      return run.line <= a2.n;
    }
    if (matchesAddress(a2, ps, run)) cmd.active = false;
    return true;
  }
  if (!matchesAddress(cmd.a1, ps, run)) return false;
  // A line-number end at or before this line makes a one-line range.
  cmd.active = !(a2.k === 'line' && a2.n <= run.line) && !(a2.k === 'last' && run.last);
  return true;
}

function substitute(
  cmd: Extract<SedCommand, { c: 's' }>,
  ps: string,
  run: Run,
): string | undefined {
  const base = regexOf(cmd.re, run);
  const re = new RegExp(base.source, `${base.flags.replace('g', '')}g`);
  let out = '';
  let from = 0;
  let count = 0;
  let done = false;
  for (let m = re.exec(ps); m !== null; m = re.exec(ps)) {
    count++;
    if (count >= cmd.nth && (cmd.global || count === cmd.nth)) {
      out += ps.slice(from, m.index) + replacement(cmd.repl, m);
      from = m.index + m[0].length;
      done = true;
      if (!cmd.global) break;
    }
    if (m[0] === '') re.lastIndex++;
  }
  return done ? out + ps.slice(from) : undefined;
}

/** Runs commands on the pattern space; false when `d` ended the cycle. */
function execute(cmds: readonly SedCommand[], ps: { text: string }, run: Run): boolean {
  for (const cmd of cmds) {
    if (selected(cmd, ps.text, run) === cmd.not) continue;
    switch (cmd.c) {
      case 's': {
        const r = substitute(cmd, ps.text, run);
        if (r !== undefined) {
          ps.text = r;
          if (cmd.print) run.out += `${ps.text}\n`;
        }
        break;
      }
      case 'y':
        ps.text = [...ps.text].map((ch) => { const i = cmd.from.indexOf(ch); return i < 0 ? ch : cmd.to[i]!; }).join(''); // prettier-ignore
        break;
      case 'p':
        run.out += `${ps.text}\n`;
        break;
      case '=':
        run.out += `${run.line}\n`;
        break;
      case 'd':
        return false;
      case 'q':
        run.quit = 'print';
        return true;
      case 'Q':
        run.quit = 'silent';
        return false;
      case '{':
        if (!execute(cmd.body, ps, run)) return false;
        if (run.quit !== undefined) return true;
    }
  }
  return true;
}

function sed(ctx: CommandContext, argv: string[]): CommandResult {
  let quiet = false;
  let extended = false;
  const expressions: string[] = [];
  const operands: string[] = [];
  const bad = (text: string, exitCode = 1): CommandResult => ({ stdout: '', stderr: text, exitCode }); // prettier-ignore
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      for (const operand of argv.slice(i + 1)) operands.push(operand);
      break;
    }
    if (a === '-n' || a === '--quiet' || a === '--silent') quiet = true;
    else if (a === '-E' || a === '-r' || a === '--regexp-extended') extended = true;
    else if (a === '-e' || a.startsWith('--expression=')) {
      const v = a === '-e' ? argv[++i] : a.slice('--expression='.length);
      if (v === undefined) return bad(`sed: option requires an argument -- 'e'\n${USAGE}`);
      expressions.push(v);
    } else if (/^-[nEr]+$/.test(a)) {
      quiet ||= a.includes('n');
      extended ||= /[Er]/.test(a);
    } else if (a.startsWith('-e')) expressions.push(a.slice(2));
    else if (a.startsWith('-') && a !== '-')
      return bad(labNote('tool.option', { tool: 'sed', option: a.replace(/^-+/, '') }), 1); // prettier-ignore
    else operands.push(a);
  }
  if (expressions.length === 0) {
    const script = operands.shift();
    if (script === undefined) return bad(USAGE, 1);
    expressions.push(script);
  }
  let cmds: SedCommand[];
  try {
    cmds = parseSed(expressions, extended);
  } catch (err) {
    if (!(err instanceof SedError)) throw err;
    return bad(err.unmodelled ? labNote('sed.script') : `sed: ${err.message}\n`);
  }
  let input = operands.length === 0 ? ctx.stdin : '';
  let stderr = '';
  for (const f of operands) {
    const text = f === '-' ? ctx.stdin : ctx.world.readFile(f);
    if (text === undefined)
      stderr += missingFileMessage(f, `sed: can't read ${f}: No such file or directory\n`); // prettier-ignore
    else input += text;
  }
  const lines = input === '' ? [] : input.split('\n');
  const newlineAtEnd = input.endsWith('\n');
  if (newlineAtEnd) lines.pop();
  const run: Run = { line: 0, last: false, lastRegex: undefined, out: '', quit: undefined };
  try {
    for (const text of lines) {
      run.line++;
      run.last = run.line === lines.length;
      const ps = { text };
      const keep = execute(cmds, ps, run);
      if ((keep && !quiet) || (run.quit === 'print' && !quiet)) run.out += `${ps.text}\n`;
      if (run.quit !== undefined) break;
    }
  } catch (err) {
    if (!(err instanceof SedError)) throw err;
    return { stdout: run.out, stderr: `sed: ${err.message}\n`, exitCode: 1 };
  }
  // GNU sed keeps a missing newline at the end of the input missing.
  const stdout = !newlineAtEnd && run.out.endsWith('\n') && run.last ? run.out.slice(0, -1) : run.out; // prettier-ignore
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 2 };
}

export function registerSed(registry: CommandRegistry): void {
  registerCommand(registry, 'sed', sed);
}
