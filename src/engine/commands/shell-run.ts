/**
 * Runs a parsed command line (shell.ts) against the world: lists joined by `;`, `&&`, `||` as
 * bash does, pipelines stage by stage with each stage's stdout as the next one's stdin, `for`
 * loops, each word expanded when its command runs (shell-expand.ts), and redirections: `< FILE`
 * here, output ones in shell-redirect.ts.
 */
import { appendWrites, stdioAround, type StdioWrite } from '../model/stdio';
import { commandInput } from './shell-input';
import { runArgv, type CommandRegistry, type CommandResult, type CommandWorld } from './registry';
import { parseCommandLine } from './shell';
import { openSinks, routeOutput } from './shell-redirect';
import {
  loopBuiltin,
  runFor,
  runIf,
  runWhile,
  type CompoundRun,
  type LoopControl,
} from './shell-compound';
import { expandAssigned, expandWord, newShellEnv, type ShellEnv } from './shell-expand';
import { deeper, topLevel, type Nesting } from './shell-nesting';
import { isOneSimpleCommand, programName } from './shell-shape';
import type { Command, CommandList, Pipeline } from './shell-types';

/** What one run of a list needs: where, which commands, the variables, and the terminal. */
interface Run {
  readonly registry: CommandRegistry;
  readonly world: CommandWorld;
  readonly env: ShellEnv;
  /** `break` and `continue` on their way out of the loops (shell-compound.ts). */
  readonly control: LoopControl;
  /** The lists running around this one in the line, and whether one went past MAX_NESTING. */
  readonly nesting: Nesting;
  /** The terminal, for a line that is one simple command (CommandContext.stdoutStream). */
  readonly stdoutStream?: (chunk: string) => void;
}

interface Ran {
  readonly result: CommandResult;
  readonly writes: readonly StdioWrite[];
}

/**
 * A result that ends the whole line: an expansion error (`$((1/0))`) abandons the rest of the
 * command line in an interactive bash, with status 1.
 */
interface ShellResult extends CommandResult {
  readonly abort?: true;
  /** A loop the lab stopped as Ctrl-C would: the whole pipeline and line end with it. */
  readonly interrupted?: true;
}

/** A result's writes: its own, or stdout then stderr. */
function writesOf(r: CommandResult): readonly StdioWrite[] {
  return r.writes ?? stdioAround('', r.stdout, r.stderr);
}

/** The fields of `words` after expansion, and the stderr of their command substitutions. */
function expandAll(
  run: Run,
  words: readonly string[],
  expand: typeof expandWord = expandWord,
): { fields: string[]; stderr: string; failed?: true } {
  const fields: string[] = [];
  let stderr = '';
  const substitute = (line: string) => {
    // A command substitution runs in a subshell: the same variables, its own `$?`.
    const env: ShellEnv = { vars: new Map(run.env.vars), status: run.env.status };
    const r = runList(run.registry, run.world, line, env, false, run.nesting);
    const { stdout, stderr } = r.result;
    return run.nesting.exceeded ? { stdout, stderr, failed: true as const } : { stdout, stderr };
  };
  for (const w of words) {
    const e = expand(w, run.env, substitute);
    stderr += e.stderr;
    // An expansion error (bash: `1/0: division by 0`) ends the command before it runs.
    if (e.failed === true) return { fields: [], stderr, failed: true };
    // One at a time: spread into push(), `$(seq 200000)`'s fields overflow the stack.
    for (const field of e.fields) fields.push(field);
  }
  return { fields, stderr };
}

/**
 * One command of a pipeline, with its input; `tty`: its stdout is the terminal; `errTty`: its
 * stderr is (wget draws its bar only there).
 */
function runCommand(
  run: Run,
  command: Command,
  stdin: string,
  tty: boolean,
  errTty = true,
): ShellResult {
  if (command.kind === 'for') return runFor(compound(run), command, stdin, tty);
  if (command.kind === 'while') return runWhile(compound(run), command, stdin, tty);
  if (command.kind === 'if') return runIf(compound(run), command, stdin, tty);
  // Leading NAME=VALUE words are assignments; alone they set the shell's variables (`$?` 0),
  // before a command they would be its environment, which no command of the lab reads.
  let k = 0;
  let assignErr = '';
  const assignments: [string, string][] = [];
  for (; k < command.argv.length && /^[A-Za-z_]\w*=/.test(command.argv[k]!); k++) {
    const word = command.argv[k]!;
    const eq = word.indexOf('=');
    // An assignment's value is not split into words (expandAssigned).
    const e = expandAll(run, [word.slice(eq + 1)], expandAssigned);
    assignErr += e.stderr;
    if (e.failed === true) return { stdout: '', stderr: assignErr, exitCode: 1, abort: true };
    assignments.push([word.slice(0, eq), e.fields.join(' ')]);
  }
  if (k === command.argv.length && assignments.length > 0) {
    for (const [name, value] of assignments) run.env.vars.set(name, value);
    return { stdout: '', stderr: assignErr, exitCode: 0 };
  }
  const expanded = expandAll(run, command.argv.slice(k));
  const fields = expanded.fields;
  const stderr = assignErr + expanded.stderr;
  if (expanded.failed === true) return { stdout: '', stderr, exitCode: 1, abort: true };
  if (fields[0] === 'break' || fields[0] === 'continue') {
    const r = loopBuiltin(run.control, fields);
    return { ...r, stderr: stderr + r.stderr };
  }
  // Streamed output reaches the terminal at once: only when nothing written before it (the
  // expansion's errors) is still to come.
  const stream = tty && stderr === '' ? run.stdoutStream : undefined;
  const r = runArgv(
    run.registry,
    {
      world: run.world,
      stdin,
      stdoutIsTty: tty,
      stderrIsTty: errTty,
      shellVars: run.env.vars,
      ...(stream !== undefined ? { stdoutStream: stream } : {}),
    },
    fields,
  );
  if (stderr === '') return r;
  return {
    stdout: r.stdout,
    stderr: stderr + r.stderr,
    exitCode: r.exitCode,
    writes: [{ fd: 2, text: stderr }, ...writesOf(r)],
  };
}

/** The shell as a compound command sees it (shell-compound.ts). */
function compound(run: Run): CompoundRun {
  return {
    env: run.env,
    control: run.control,
    expand: (words) => expandAll(run, words),
    runList: (list, stdin, tty) => runParsed(run, list, stdin, tty),
    nowSeconds: () => run.world.nowSeconds(),
  };
}

/** Runs `a | b | c`: each stage's stdout feeds the next; stderr of every stage reaches the terminal. */
function runPipeline(run: Run, pipeline: Pipeline, input: string, tty: boolean): ShellResult {
  let stdin = input;
  let stderr = '';
  let last: ShellResult = { stdout: '', stderr: '', exitCode: 0 };
  let earlier = '';
  let interrupted: true | undefined;
  const commands = pipeline.commands;
  for (let i = 0; i < commands.length; i++) {
    const command = commands[i]!;
    // The last stage writes to the terminal unless its stdout goes to a file (`>&2` is the
    // terminal too).
    const stdoutIsTty =
      tty &&
      i === commands.length - 1 &&
      !command.redirections.some((r) => (r.fd === 1 || r.fd === 'both') && r.target !== '&2');
    const input = commandInput(
      command.redirections,
      stdin,
      (path) => run.world.readFile(path),
      (word) => expandAll(run, [word], expandAssigned),
    );
    if ('error' in input) return { ...input.error, stderr: stderr + input.error.stderr };
    const stageInput = input.input;
    stderr += input.stderr;
    earlier = stderr;
    // Each command of a real pipeline runs in a subshell: its variables stay there.
    const stage = commands.length > 1 ? { ...run, env: { vars: new Map(run.env.vars), status: run.env.status } } : run; // prettier-ignore
    const sinks = openSinks(
      command.redirections,
      (word) => expandAll(stage, [word]),
      (path) => stage.world.openFile?.(path),
    );
    if ('error' in sinks) {
      last = sinks.error;
      stderr += last.stderr;
      stdin = last.stdout;
      continue;
    }
    // stderr is the terminal unless redirected: `2>&1` follows stdout, into a pipe or a file.
    const err = sinks.err;
    const stderrIsTty = tty && err.kind === 'tty' && (err.fd === 2 || stdoutIsTty);
    const ran = runCommand(stage, command, stageInput, stdoutIsTty, stderrIsTty);
    if (ran.abort === true && ran.interrupted !== true && commands.length === 1)
      return { ...ran, stderr: stderr + ran.stderr, abort: true };
    if (ran.interrupted === true) interrupted = true;
    last = routeOutput(sinks, ran, stdoutIsTty, programName(command));
    stderr += last.stderr;
    stdin = last.stdout;
  }
  // The earlier stages' stderr reaches the terminal before the last stage's output, which
  // they feed.
  const writes = [{ fd: 2 as const, text: earlier }, ...writesOf(last)];
  if (interrupted) return { stdout: last.stdout, stderr, exitCode: 130, writes, abort: true, interrupted }; // prettier-ignore
  return { stdout: last.stdout, stderr, exitCode: last.exitCode, writes };
}

type ListRan = Ran & { readonly aborted?: true; readonly interrupted?: true };

/** Runs a list one level deeper: a loop's or an `if`'s, or a `$(…)`'s (shell-nesting.ts). */
function runParsed(run: Run, list: CommandList, input: string, tty: boolean): ListRan {
  return deeper(
    run.nesting,
    () => runListItems(run, list, input, tty),
    (note) => {
      const result = { stdout: '', stderr: note, exitCode: 1 };
      return { result, writes: writesOf(result), aborted: true };
    },
  );
}

function runListItems(run: Run, list: CommandList, input: string, tty: boolean): ListRan {
  let stdout = '';
  let stderr = '';
  const writes: StdioWrite[] = [];
  for (const [k, { connector, pipeline }] of list.items.entries()) {
    if (connector === '&&' && run.env.status !== 0) continue;
    if (connector === '||' && run.env.status === 0) continue;
    const r = runPipeline(run, pipeline, k === 0 ? input : '', tty);
    stdout += r.stdout;
    stderr += r.stderr;
    run.env.status = r.exitCode;
    appendWrites(writes, writesOf(r));
    // `break` or `continue`: the rest of the loop's list does not run.
    if (run.control.pending !== undefined) break;
    if (r.abort === true) {
      const result = { stdout, stderr, exitCode: run.env.status };
      return { result, writes, aborted: true, ...(r.interrupted ? { interrupted: true } : {}) };
    }
  }
  return { result: { stdout, stderr, exitCode: run.env.status }, writes };
}

function runList(
  registry: CommandRegistry,
  world: CommandWorld,
  line: string,
  env: ShellEnv,
  tty: boolean,
  nesting: Nesting,
  stdoutStream?: (chunk: string) => void,
): Ran {
  const parsed = parseCommandLine(line);
  if (!parsed.ok) {
    // bash's report_syntax_error() sets `$?` (2) too; the lab's refusals say their own status.
    env.status = parsed.exitCode;
    const result = { stdout: '', stderr: parsed.error, exitCode: parsed.exitCode };
    return { result, writes: writesOf(result) };
  }
  const run: Run = {
    registry,
    world,
    env,
    nesting,
    control: { depth: 0, pending: undefined },
    ...(stdoutStream !== undefined && isOneSimpleCommand(parsed.list) ? { stdoutStream } : {}),
  };
  // An empty line runs nothing and leaves `$?` as it was.
  const ran = runParsed(run, parsed.list, '', tty);
  if (parsed.warnings === '') return ran;
  // bash warns about a here-document cut short while it reads the line, before anything runs.
  const result = { ...ran.result, stderr: parsed.warnings + ran.result.stderr };
  return { ...ran, result, writes: [{ fd: 2, text: parsed.warnings }, ...ran.writes] };
}

/**
 * Tokenizes and runs one command line typed at the host's terminal, with the writes of its
 * commands in order: what a terminal shows is `mergeWrites(writes, true)` (model/stdio.ts),
 * curl -v's body among its verbose lines. The host's shell keeps its variables and `$?` for the
 * next line. With `stdoutStream`, a line that is one simple command may write its stdout there
 * while it runs (CommandContext.stdoutStream); what it returns then holds the rest.
 */
export function runCommandLineInOrder(
  registry: CommandRegistry,
  ctx: { readonly world: CommandWorld; readonly stdoutStream?: (chunk: string) => void },
  line: string,
): Ran {
  const env = ctx.world.shellEnv?.() ?? newShellEnv();
  return runList(registry, ctx.world, line, env, true, topLevel(), ctx.stdoutStream);
}

/**
 * Tokenizes and runs one command line in a shell of its own (the lab's views, tests): the
 * terminal's `$?` and variables are neither read nor changed.
 */
export function runCommandLine(
  registry: CommandRegistry,
  ctx: { readonly world: CommandWorld },
  line: string,
): CommandResult {
  return runList(registry, ctx.world, line, newShellEnv(), true, topLevel()).result;
}
