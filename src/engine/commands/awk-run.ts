/**
 * Runs a parsed awk program (awk-parse.ts) over its input as mawk 1.3.4 does: BEGIN, each
 * record through the rules (range patterns included), END; statements and loops; next, exit
 * (END still runs after an exit elsewhere, with the exit status kept), user functions (scalars
 * by value, arrays by reference). Expressions: awk-eval.ts.
 */
import { AwkArray } from './awk-array';
import type { Expr, Program, Stmt } from './awk-ast';
import { AwkRuntimeError, Evaluator, type Frame } from './awk-eval';
import { StrNum, toNumber, UNSET, type Value } from './awk-value';

export interface AwkRun {
  readonly stdout: string;
  readonly stderr: string;
  /** A run-time error (mawk's words after `mawk: run time error: `), output kept up to it. */
  readonly error?: string;
  /** The lab stopped a program that ran past STEP_LIMIT statements. */
  readonly runaway?: boolean;
  /** mawk's words after `mawk: ` when it gives up without a run-time error's second line. */
  readonly fatal?: string;
  readonly exitCode: number;
}

/** Input: each file's lines, under the name FILENAME gives (`-` for standard input). */
export interface AwkSource {
  readonly file: string;
  readonly lines: readonly string[];
  /** A command-line `NAME=value`: made when reading reaches it. */
  readonly assign?: readonly [string, string];
}

class Next {}
class Exit {}
class Break {}
class Continue {}
class Return {
  constructor(readonly value: Value) {}
}

/**
 * Calls deep enough to fill mawk's evaluation stack (1024 cells). How deep that is depends
 * on the expressions each call leaves on the stack (500 to 1006 calls of a one-argument
 * function here); the lab stops at one depth, with mawk's message.
 */
const MAX_DEPTH = 1000;
class StackFull {}
/**
 * Statements a run may execute: `while (1)` would hang the lab's worker, where a terminal
 * would let the user press Ctrl-C. Far beyond what a one-liner over a node's output needs.
 */
export const STEP_LIMIT = 20_000_000;

class Runaway {}

class Interpreter extends Evaluator {
  private source = 0;
  private line = 0;
  private depth = 0;
  exitCode = 0;

  constructor(
    private readonly program: Program,
    private readonly sources: readonly AwkSource[],
  ) {
    super();
  }

  protected nextRecord(): string | undefined {
    while (this.source < this.sources.length) {
      const s = this.sources[this.source]!;
      if (s.assign !== undefined) {
        this.set(s.assign[0], new StrNum(s.assign[1]));
        this.source++;
        continue;
      }
      if (this.line === 0) {
        this.filename = s.file;
        this.fnr = 0;
      }
      if (this.line < s.lines.length) return s.lines[this.line++];
      this.source++;
      this.line = 0;
    }
    return undefined;
  }

  protected callUser(name: string, args: readonly Expr[]): Value {
    const fn = this.program.functions.get(name)!;
    const frame: Frame = new Map();
    fn.params.forEach((p, i) => {
      const a = args[i];
      // A bare name holding an array is passed by reference.
      const local = a?.k === 'var' && this.frame?.has(a.name);
      const held = a?.k !== 'var' ? undefined : local ? this.frame!.get(a.name) : this.program.arrays.has(a.name) ? this.array(a.name) : this.globals.get(a.name); // prettier-ignore
      frame.set(p, a === undefined ? UNSET : held instanceof AwkArray ? held : this.value(a));
    });
    if (++this.depth > MAX_DEPTH) throw new StackFull();
    const saved = this.frame;
    this.frame = frame;
    try {
      this.exec(fn.body);
      return UNSET;
    } catch (err) {
      if (err instanceof Return) return err.value;
      throw err;
    } finally {
      this.frame = saved;
      this.depth--;
    }
  }

  private out(dest: 'stdout' | 'stderr', text: string): void {
    if (dest === 'stderr') this.stderr += text;
    else this.stdout += text;
  }

  private steps = 0;

  exec(s: Stmt): void {
    if (++this.steps > STEP_LIMIT) throw new Runaway();
    switch (s.k) {
      case 'print': {
        const text = s.args.length === 0 ? this.record : s.args.map((a) => this.outputText(this.value(a))).join(this.textOf('OFS')); // prettier-ignore
        return this.out(s.dest, text + this.textOf('ORS'));
      }
      case 'printf': {
        const [format, ...rest] = s.args.map((a) => this.value(a));
        return this.out(s.dest, this.sprintf(this.text(format!), rest, s.dest));
      }
      case 'expr':
        this.value(s.e);
        return;
      case 'if':
        if (this.truthy(this.value(s.c))) this.exec(s.t);
        else if (s.f !== undefined) this.exec(s.f);
        return;
      case 'while':
        while (this.truthy(this.value(s.c))) if (this.loopBody(s.body)) break;
        return;
      case 'do':
        do if (this.loopBody(s.body)) break;
        while (this.truthy(this.value(s.c)));
        return;
      case 'for':
        if (s.init !== undefined) this.value(s.init);
        for (; s.c === undefined || this.truthy(this.value(s.c));) {
          if (this.loopBody(s.body)) break;
          if (s.step !== undefined) this.value(s.step);
        }
        return;
      case 'forin':
        // The keys are taken before the body runs (mawk's loop vector): deleting or adding
        // elements inside the loop changes no visit.
        for (const key of this.array(s.arr).loopKeys()) {
          this.assign(s.v, key);
          if (this.loopBody(s.body)) break;
        }
        return;
      case 'delete':
        return this.remove(s.name, s.subs);
      case 'exit':
        if (s.e !== undefined) this.exitCode = Math.trunc(toNumber(this.value(s.e))) & 255;
        throw new Exit();
      case 'return':
        throw new Return(s.e === undefined ? UNSET : this.value(s.e));
      case 'next':
        throw new Next();
      case 'break':
        throw new Break();
      case 'continue':
        throw new Continue();
      case 'block':
        for (const b of s.body) this.exec(b);
    }
  }

  /** Runs a loop's body once; true when it said break. */
  private loopBody(body: Stmt): boolean {
    try {
      this.exec(body);
    } catch (err) {
      if (err instanceof Break) return true;
      if (err instanceof Continue) return false;
      throw err;
    }
    return false;
  }

  run(): void {
    const { begin, rules, end } = this.program;
    try {
      for (const s of begin) this.exec(s);
      // Without rules or END, mawk reads no input.
      if (rules.length > 0 || end.length > 0) this.records();
    } catch (err) {
      if (!(err instanceof Exit)) throw err;
    }
    try {
      for (const s of end) this.exec(s);
    } catch (err) {
      if (!(err instanceof Exit)) throw err;
    }
  }

  private records(): void {
    const rules = this.program.rules;
    const inRange = rules.map(() => false);
    for (let line = this.nextRecord(); line !== undefined; line = this.nextRecord()) {
      this.nr++;
      this.fnr++;
      this.setRecord(line);
      try {
        rules.forEach((rule, i) => {
          const p = rule.pattern;
          let hit: boolean;
          if (p.k === 'all') hit = true;
          else if (p.k === 'expr') hit = this.truthy(this.value(p.e));
          else {
            hit = inRange[i]! || this.truthy(this.value(p.from));
            if (hit) inRange[i] = !this.truthy(this.value(p.to));
          }
          if (!hit) return;
          if (rule.action === undefined) this.out('stdout', this.record + this.textOf('ORS'));
          else this.exec(rule.action);
        });
      } catch (err) {
        if (!(err instanceof Next)) throw err;
      }
    }
  }
}

/** The program's output over `sources`, FS set and -v's assignments made first. */
export function runAwk(
  program: Program,
  sources: readonly AwkSource[],
  fs: string,
  assigned: readonly (readonly [string, string])[] = [],
): AwkRun {
  const it = new Interpreter(program, sources);
  const defaults: [string, Value][] = [['FS', fs], ['OFS', ' '], ['ORS', '\n'], ['RS', '\n'], ['CONVFMT', '%.6g'], ['OFMT', '%.6g'], ['SUBSEP', '\x1c']]; // prettier-ignore
  for (const [k, v] of defaults) it.globals.set(k, v);
  // -v values are read as input is: text that may be a number.
  for (const [k, v] of assigned) it.set(k, new StrNum(v));
  try {
    it.run();
  } catch (err) {
    // JavaScript's own stack may fill first (loops inside each call take more of it).
    const jsStackFull = err instanceof RangeError && /call stack/i.test(err.message);
    if (err instanceof StackFull || jsStackFull) return { stdout: it.stdout, stderr: it.stderr, fatal: 'program limit exceeded: eval stack size=1024', exitCode: 2 }; // prettier-ignore
    if (err instanceof Runaway) return { stdout: it.stdout, stderr: it.stderr, runaway: true, exitCode: 130 }; // prettier-ignore
    if (!(err instanceof AwkRuntimeError)) throw err;
    // mawk's second line names where it was.
    const at = `\tFILENAME="${it.filename}" FNR=${it.fnr} NR=${it.nr}`;
    return { stdout: it.stdout, stderr: it.stderr, error: `${err.message}\n${at}`, exitCode: 2 };
  }
  return { stdout: it.stdout, stderr: it.stderr, exitCode: it.exitCode };
}
