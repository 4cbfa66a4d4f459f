/**
 * bash 5.2's `test` and `[` builtins (test.c), with `true`, `false` and `:`, so that loops and
 * conditions read as on a node: `i=0; while [ $i -lt 3 ]; do …; i=$((i+1)); done`.
 *
 * The arguments are read as test.c reads them: up to four by the POSIX rules on their count
 * (one: not empty; two: `!` or a unary operator; three: a binary operator, `-a`/`-o`, `!` or
 * `( … )`), more by its grammar (`!`, `( )`, `-a` over `-o`, a binary operator before a unary
 * one). Strings compare byte by byte (C locale); integers are decimal with blanks around and a
 * sign, 64-bit. The errors are bash's, status 2. Operators on files and terminals (`-e`, `-f`,
 * `-nt`, `-t`…) get the lab's note: its hosts have no filesystem to look at.
 * (tests/kernel/text-tools.test.ts runs the same lines through the real bash.)
 */
import { labNote } from '../model/lab-notes';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';

const STRING_UNARY = new Set(['-n', '-z', '-v']);
const FILE_UNARY = new Set('abcdefghkoprstuwxGLNOSR'.split('').map((c) => `-${c}`));
const BINARY = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const FILE_BINARY = new Set(['-nt', '-ot', '-ef']);

const isUnary = (op: string | undefined) =>
  op !== undefined && (STRING_UNARY.has(op) || FILE_UNARY.has(op));
const isBinary = (op: string | undefined) =>
  op !== undefined && (BINARY.has(op) || FILE_BINARY.has(op));

class TestError {
  constructor(readonly message: string) {}
}

/** legal_number(): blanks, a sign, decimal digits, blanks; within 64 bits. */
function integer(text: string): bigint {
  const m = /^[ \t\n]*([-+]?\d+)[ \t\n]*$/.exec(text);
  const value = m === null ? undefined : BigInt(m[1]!);
  if (value === undefined || value > 9223372036854775807n || value < -9223372036854775808n)
    throw new TestError(`${text}: integer expression expected`);
  return value;
}

class Evaluator {
  private pos = 0;
  /** An operator the lab cannot answer (a file test): noted, answered false. */
  unmodelled: string | undefined;

  constructor(
    private readonly args: readonly string[],
    private readonly isSet: (name: string) => boolean,
  ) {}

  run(): boolean {
    const a = this.args;
    switch (a.length) {
      case 0:
        return false;
      case 1:
        return a[0] !== '';
      case 2:
        return this.two(0);
      case 3:
        return this.three(0);
      case 4:
        if (a[0] === '!') return !this.three(1);
        if (a[0] === '(' && a[3] === ')') return this.two(1);
    }
    const value = this.or();
    if (this.pos < a.length) {
      const at = a[this.pos]!;
      throw new TestError(at.startsWith('-') ? `syntax error: \`${at}' unexpected` : 'too many arguments'); // prettier-ignore
    }
    return value;
  }

  private two(i: number): boolean {
    const [op, arg] = [this.args[i]!, this.args[i + 1]!];
    if (op === '!') return arg === '';
    if (!isUnary(op)) throw new TestError(`${op}: unary operator expected`);
    return this.unary(op, arg);
  }

  private three(i: number): boolean {
    const [x, op, y] = [this.args[i]!, this.args[i + 1]!, this.args[i + 2]!];
    if (isBinary(op)) return this.binary(x, op, y);
    if (op === '-a') return x !== '' && y !== '';
    if (op === '-o') return x !== '' || y !== '';
    if (x === '!') return !this.two(i + 1);
    if (x === '(' && y === ')') return op !== '';
    throw new TestError(`${op}: binary operator expected`);
  }

  private or(): boolean {
    const left = this.and();
    if (this.args[this.pos] !== '-o') return left;
    this.pos++;
    return this.or() || left;
  }

  private and(): boolean {
    const left = this.term();
    if (this.args[this.pos] !== '-a') return left;
    this.pos++;
    return this.and() && left;
  }

  private term(): boolean {
    const a = this.args;
    if (this.pos >= a.length) throw new TestError('argument expected');
    const word = a[this.pos]!;
    if (word === '!') {
      this.pos++;
      return !this.term();
    }
    if (word === '(') {
      this.pos++;
      const value = this.or();
      const close = a[this.pos];
      if (close !== ')')
        throw new TestError(close === undefined ? "`)' expected" : `\`)' expected, found ${close}`); // prettier-ignore
      this.pos++;
      return value;
    }
    if (this.pos + 3 <= a.length && isBinary(a[this.pos + 1])) {
      this.pos += 3;
      return this.binary(word, a[this.pos - 2]!, a[this.pos - 1]!);
    }
    if (this.pos + 2 <= a.length && isUnary(word)) {
      this.pos += 2;
      return this.unary(word, a[this.pos - 1]!);
    }
    this.pos++;
    return word !== '';
  }

  private unary(op: string, arg: string): boolean {
    if (op === '-n') return arg !== '';
    if (op === '-z') return arg === '';
    if (op === '-v') return this.isSet(arg);
    this.unmodelled ??= op;
    return false;
  }

  private binary(x: string, op: string, y: string): boolean {
    switch (op) {
      case '=':
      case '==':
        return x === y;
      case '!=':
        return x !== y;
      case '<':
        return x < y;
      case '>':
        return x > y;
    }
    if (FILE_BINARY.has(op)) {
      this.unmodelled ??= op;
      return false;
    }
    const [l, r] = [integer(x), integer(y)];
    if (op === '-eq') return l === r;
    if (op === '-ne') return l !== r;
    if (op === '-lt') return l < r;
    if (op === '-le') return l <= r;
    if (op === '-gt') return l > r;
    return l >= r;
  }
}

/** `test ARG…` or `[ ARG… ]` (argv[0] is the name it was called by). */
function test(ctx: CommandContext, argv: string[]): CommandResult {
  const name = argv[0] === '[' ? '[' : 'test';
  let args = argv.slice(1);
  if (name === '[') {
    if (args[args.length - 1] !== ']')
      return { stdout: '', stderr: "bash: [: missing `]'\n", exitCode: 2 };
    args = args.slice(0, -1);
  }
  const evaluator = new Evaluator(args, (v) => ctx.shellVars?.has(v) ?? false);
  try {
    const value = evaluator.run();
    if (evaluator.unmodelled !== undefined) {
      const note = labNote('tool.option', { tool: name, option: evaluator.unmodelled.slice(1) });
      return { stdout: '', stderr: note, exitCode: 2 };
    }
    return { stdout: '', stderr: '', exitCode: value ? 0 : 1 };
  } catch (e) {
    if (!(e instanceof TestError)) throw e;
    return { stdout: '', stderr: `bash: ${name}: ${e.message}\n`, exitCode: 2 };
  }
}

export function registerShellBuiltins(registry: CommandRegistry): void {
  registerCommand(registry, 'test', test);
  registerCommand(registry, '[', test);
  const status = (exitCode: number) => () => ({ stdout: '', stderr: '', exitCode });
  registerCommand(registry, 'true', status(0));
  registerCommand(registry, ':', status(0));
  registerCommand(registry, 'false', status(1));
}
