/**
 * The lab shell's compound commands, run as bash 5.2 runs them: `for`, `while`/`until` and
 * `if`, with the `break` and `continue` builtins. A compound command's output is its commands'
 * output in order; its status is the last body command's (0 when no body ran).
 *
 * A `while true` never ends on a node until Ctrl-C. The lab runs a command line to its end, so
 * it stops a `while`/`until` loop as Ctrl-C would (status 130, the rest of the line abandoned)
 * once it has run MAX_ROUNDS times or for MAX_MINUTES of virtual time, and says so.
 */
import { labNote } from '../model/lab-notes';
import { appendWrites, type StdioWrite } from '../model/stdio';
import type { CommandResult } from './registry';
import type { CommandList, ForCommand, IfCommand, WhileCommand } from './shell-types';
import type { ShellEnv } from './shell-expand';

export const MAX_ROUNDS = 1000;
export const MAX_MINUTES = 10;

/** Where `break N` and `continue N` are headed: how many enclosing loops are left to leave. */
export interface LoopControl {
  depth: number;
  pending: { readonly kind: 'break' | 'continue'; levels: number } | undefined;
}

/** A list's run, as shell-run.ts reports it. */
export interface ListRan {
  readonly result: CommandResult;
  readonly writes: readonly StdioWrite[];
  readonly aborted?: true;
  readonly interrupted?: true;
}

/** What a compound command needs from the shell running it. */
export interface CompoundRun {
  readonly env: ShellEnv;
  readonly control: LoopControl;
  expand(words: readonly string[]): { fields: string[]; stderr: string; failed?: true };
  runList(list: CommandList, stdin: string, tty: boolean): ListRan;
  nowSeconds(): number;
}

export interface CompoundResult extends CommandResult {
  readonly abort?: true;
  /** Stopped by the lab as Ctrl-C would stop it (runWhile). */
  readonly interrupted?: true;
}

/** The output of the lists a compound command runs, gathered in order. */
class Output {
  stdout = '';
  stderr = '';
  readonly writes: StdioWrite[] = [];

  add(r: ListRan | { result: CommandResult; writes: readonly StdioWrite[] }): void {
    this.stdout += r.result.stdout;
    this.stderr += r.result.stderr;
    appendWrites(this.writes, r.writes);
  }

  result(exitCode: number, abort?: true, interrupted?: boolean): CompoundResult {
    const { stdout, stderr, writes } = this;
    if (interrupted === true) return { stdout, stderr, exitCode, writes, abort: true, interrupted }; // prettier-ignore
    return abort ? { stdout, stderr, exitCode, writes, abort } : { stdout, stderr, exitCode, writes }; // prettier-ignore
  }
}

/**
 * After a loop's list: whether the loop goes on. A pending `break 1` or `continue 1` is this
 * loop's and is used up; with more levels, this loop ends and the enclosing one sees the rest.
 */
function goesOn(control: LoopControl): boolean {
  const p = control.pending;
  if (p === undefined) return true;
  if (p.levels > 1) {
    p.levels--;
    return false;
  }
  control.pending = undefined;
  return p.kind === 'continue';
}

/** Runs `body` as a loop's body: one level deeper for `break` and `continue`. */
function inLoop<T>(control: LoopControl, body: () => T): T {
  control.depth++;
  try {
    return body();
  } finally {
    control.depth--;
  }
}

/** `for NAME in WORDS; do LIST; done`: the body once per word. */
export function runFor(
  run: CompoundRun,
  loop: ForCommand,
  stdin: string,
  tty: boolean,
): CompoundResult {
  // prettier-ignore
  const { fields, stderr, failed } = run.expand(loop.words ?? []);
  if (failed === true) return { stdout: '', stderr, exitCode: 1, abort: true };
  const out = new Output();
  out.add({ result: { stdout: '', stderr, exitCode: 0 }, writes: [{ fd: 2, text: stderr }] });
  let status = 0;
  for (const [k, value] of fields.entries()) {
    run.env.vars.set(loop.name, value);
    // The loop's input goes to its body; the first command to read it takes it all.
    const r = inLoop(run.control, () => run.runList(loop.body, k === 0 ? stdin : '', tty));
    out.add(r);
    status = r.result.exitCode;
    if (r.aborted) return out.result(status, true, r.interrupted);
    if (!goesOn(run.control)) break;
  }
  return out.result(status);
}

/** `while LIST; do LIST; done` (`until`: while the condition fails). */
export function runWhile(
  run: CompoundRun,
  loop: WhileCommand,
  stdin: string,
  tty: boolean,
): CompoundResult {
  // prettier-ignore
  const out = new Output();
  const started = run.nowSeconds();
  let status = 0;
  for (let round = 0; ; round++) {
    const elapsed = run.nowSeconds() - started;
    if (round >= MAX_ROUNDS || elapsed >= MAX_MINUTES * 60) {
      const note = labNote('shell.loop-stopped', {
        rounds: round,
        seconds: Math.round(elapsed),
        max: MAX_ROUNDS,
        minutes: MAX_MINUTES,
      });
      out.add({ result: { stdout: '', stderr: note, exitCode: 130 }, writes: [{ fd: 2, text: note }] }); // prettier-ignore
      return out.result(130, true, true);
    }
    const test = inLoop(run.control, () => run.runList(loop.condition, round === 0 ? stdin : '', tty)); // prettier-ignore
    out.add(test);
    if (test.aborted) return out.result(test.result.exitCode, true, test.interrupted);
    if (!goesOn(run.control)) break;
    if ((test.result.exitCode === 0) === loop.until) break;
    const r = inLoop(run.control, () => run.runList(loop.body, '', tty));
    out.add(r);
    status = r.result.exitCode;
    if (r.aborted) return out.result(status, true, r.interrupted);
    if (!goesOn(run.control)) break;
  }
  return out.result(status);
}

/** `if LIST; then LIST; [elif …] [else LIST;] fi`: the first branch whose condition holds. */
export function runIf(
  run: CompoundRun,
  cmd: IfCommand,
  stdin: string,
  tty: boolean,
): CompoundResult {
  // prettier-ignore
  const out = new Output();
  let input = stdin;
  for (const branch of cmd.branches) {
    const test = run.runList(branch.condition, input, tty);
    input = '';
    out.add(test);
    if (test.aborted) return out.result(test.result.exitCode, true, test.interrupted);
    // A `break` in the condition leaves the enclosing loop: nothing more runs here.
    if (run.control.pending !== undefined) return out.result(test.result.exitCode);
    if (test.result.exitCode !== 0) continue;
    const r = run.runList(branch.body, '', tty);
    out.add(r);
    return out.result(r.result.exitCode, r.aborted, r.interrupted);
  }
  if (cmd.otherwise === undefined) return out.result(0);
  const r = run.runList(cmd.otherwise, input, tty);
  out.add(r);
  return out.result(r.result.exitCode, r.aborted, r.interrupted);
}

/**
 * `break [N]` and `continue [N]` (bash 5.2 break.def): outside a loop a message and status 0;
 * N beyond the loops there are means all of them; N below 1 is out of range (all loops left,
 * status 1); a word that is not a number, or a second argument, ends the line with status 1
 * (seen on bash 5.2: the rest of the line does not run).
 */
export function loopBuiltin(control: LoopControl, argv: readonly string[]): CompoundResult {
  const kind = argv[0] === 'break' ? 'break' : 'continue';
  const fail = (message: string, exitCode: number, abort?: true): CompoundResult => ({
    stdout: '',
    stderr: `bash: ${kind}: ${message}\n`,
    exitCode,
    ...(abort ? { abort } : {}),
  });
  if (control.depth === 0) return fail("only meaningful in a `for', `while', or `until' loop", 0); // prettier-ignore
  const arg = argv[1];
  if (argv.length > 2) return fail('too many arguments', 1, true);
  let levels = 1;
  if (arg !== undefined) {
    if (!/^[ \t\n]*[-+]?\d+[ \t\n]*$/.test(arg)) return fail(`${arg}: numeric argument required`, 1, true); // prettier-ignore
    levels = Number(arg);
    if (levels < 1) {
      control.pending = { kind: 'break', levels: control.depth };
      return fail(`${arg}: loop count out of range`, 1);
    }
  }
  control.pending = { kind, levels: Math.min(levels, control.depth) };
  return { stdout: '', stderr: '', exitCode: 0 };
}
