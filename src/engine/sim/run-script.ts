/**
 * Runs a `TARGET$ COMMAND` script against a World, command after command, as the CLI and the
 * lab's terminal do. Script problems (a malformed line, an unknown target) are reported where
 * they occur, in order, and count as failed commands; the rest of the script still runs.
 */
import { createLabRegistry } from '../commands';
import type { CommandRegistry, CommandResult, DirectoryEntry } from '../commands/registry';
import { runCommandLineInOrder } from '../commands/shell-run';
import type { StdioWrite } from '../model/stdio';
import { parseScript, resolveTarget } from '../commands/script';
import { transcriptText } from '../commands/script-heredoc';
import { beginCommand, hostView } from './host-view';
import type { World } from './world';

export interface RunScriptOptions {
  readonly readFile: (path: string) => string | undefined;
  /** A user's directory's entries (`kubectl apply -f DIR/`); absent where there are none. */
  readonly listDirectory?: (path: string) => readonly DirectoryEntry[] | undefined;
  /**
   * Called for every command (and every script problem, with `line` undefined) in order;
   * `writes` are its output's writes in order (a terminal shows `mergeWrites(writes, true)`).
   */
  readonly onOutput: (
    line: string | undefined,
    result: CommandResult,
    writes: readonly StdioWrite[],
  ) => void;
  readonly registry?: CommandRegistry;
  /**
   * The terminal's stdout, for a host that prints a command's output as it comes (the CLI): a
   * line that is one simple command may write its stdout here while it runs, before onOutput
   * gets the rest (CommandContext.stdoutStream). Absent: every command returns all of it.
   */
  readonly stdoutStream?: (chunk: string) => void;
  /** Called before each command runs, with its prompt line (a transcript prints it first). */
  readonly onCommandStart?: (line: string) => void;
}

/** Returns the exit status of the last command that failed (0 when all succeeded). */
export function runScript(world: World, script: string, opts: RunScriptOptions): number {
  const registry = opts.registry ?? createLabRegistry();
  const parsed = parseScript(script);
  const problems = [...parsed.diagnostics];
  let status = 0;
  const reportProblemsBefore = (lineNo: number) => {
    while (problems.length > 0 && problems[0]!.line < lineNo) {
      const d = problems.shift()!;
      const stderr = `kube-proxy-lab: script line ${d.line}:${d.col}: ${d.message}\n`;
      opts.onOutput(undefined, { stdout: '', stderr, exitCode: 2 }, [{ fd: 2, text: stderr }]);
      status = 2;
    }
  };
  for (const line of parsed.lines) {
    reportProblemsBefore(line.line);
    // A here-document's lines as a terminal shows them, after bash's `> ` (PS2).
    const prompt = `${line.targetText}$ ${transcriptText(line.command)}`;
    opts.onCommandStart?.(prompt);
    const host = resolveTarget(world.cluster, line.target);
    let result: CommandResult;
    let writes: readonly StdioWrite[];
    if (typeof host === 'string') {
      const stderr = `kube-proxy-lab: script line ${line.line}: ${host}\n`;
      result = { stdout: '', stderr, exitCode: 1 };
      writes = [{ fd: 2, text: stderr }];
    } else {
      beginCommand(world);
      const view = hostView(world, host, opts.readFile, opts.listDirectory);
      const ctx = { world: view, ...(opts.stdoutStream ? { stdoutStream: opts.stdoutStream } : {}) }; // prettier-ignore
      ({ result, writes } = runCommandLineInOrder(registry, ctx, line.command));
    }
    if (result.exitCode !== 0) status = result.exitCode;
    opts.onOutput(prompt, result, writes);
  }
  reportProblemsBefore(Number.POSITIVE_INFINITY);
  return status;
}
