/**
 * `kubectl exec [-n NS] [-i] [-t] [-c CONTAINER] POD -- COMMAND [ARG…]`: the command runs in the
 * pod's network namespace, as a `pod/NS/NAME$` line does, and its output comes back through
 * kubectl (kubectl/pkg/cmd/exec, client-go remotecommand):
 *
 * - without a TTY (`-t` needs `-i` too: kubectl drops it otherwise) the command's stdout is a
 *   pipe, so curl shows its progress meter; with `-it` both streams come back as the one
 *   terminal stream, on kubectl's stdout;
 * - a non-zero exit status ends with `command terminated with exit code N` on stderr, and
 *   kubectl exits N;
 * - `sh -c LINE` (and bash, /bin/sh…) runs LINE through the lab's shell; an interactive shell
 *   is not modelled.
 */
import { labNote } from '../../model/lab-notes';
import { mergeWrites } from '../../model/stdio';
import { lookupCommand, runArgv, type CommandContext, type CommandRegistry, type CommandResult } from '../registry'; // prettier-ignore
import { runCommandLineInOrder } from '../shell-run';
import { unmodelledCommandNote } from '../unmodelled';

const SEE = "See 'kubectl exec -h' for help and examples\n";
const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });
const SHELLS = new Set(['sh', 'bash', 'ash', 'dash']);

export interface ExecOptions {
  readonly namespace: string;
  /** The words before `--` (the pod), and after it (the command); undefined: no `--`. */
  readonly target: readonly string[];
  readonly command: readonly string[] | undefined;
  readonly stdin: boolean;
  readonly tty: boolean;
  readonly container: string | undefined;
}

/**
 * Runs argv, or `sh -c LINE`, on the pod: the result as the pod's process gave it, or a note
 * when the lab cannot run it there.
 */
function runInPod(
  registry: CommandRegistry,
  ctx: CommandContext,
  opts: ExecOptions,
  name: string,
  argv: readonly string[],
): CommandResult | string {
  const pod = ctx.world.onHost?.({ kind: 'pod', namespace: opts.namespace, name });
  if (pod === undefined) return labNote('kubectl.unmodelled', { what: 'exec' });
  const program = argv[0]!;
  const base = program.slice(program.lastIndexOf('/') + 1);
  if (SHELLS.has(base)) {
    if (argv[1] !== '-c' || argv[2] === undefined) return labNote('kubectl.exec-shell');
    const r = runCommandLineInOrder(registry, { world: pod }, argv[2]);
    return { ...r.result, writes: r.writes };
  }
  if (lookupCommand(registry, base) === undefined)
    return unmodelledCommandNote(base) ?? labNote('kubectl.exec-command', { command: program });
  const tty = opts.stdin && opts.tty;
  return runArgv(registry, { world: pod, stdin: opts.stdin ? ctx.stdin : '', stdoutIsTty: tty }, [...argv]); // prettier-ignore
}

export function runExec(
  registry: CommandRegistry,
  ctx: CommandContext,
  opts: ExecOptions,
): CommandResult {
  if (opts.command === undefined && opts.target.length > 1)
    return fail(`error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\n${SEE}`); // prettier-ignore
  const podWord = opts.target[0];
  if (podWord === undefined)
    return fail(`error: pod, type/name or --filename must be specified\n${SEE}`);
  if (podWord.includes('/') && !/^pods?\//.test(podWord))
    return fail(labNote('kubectl.exec-type', { target: podWord }));
  const command = opts.command ?? [];
  if (command.length === 0)
    return fail(`error: you must specify at least one command for the container\n${SEE}`);
  const name = podWord.replace(/^pods?\//, '');
  const pod = ctx.world.cluster.pods.find(
    (p) => p.meta.namespace === opts.namespace && p.meta.name === name,
  );
  if (pod === undefined) return fail(`Error from server (NotFound): pods "${name}" not found\n`);
  if (opts.container !== undefined && !pod.containers.some((c) => c.name === opts.container))
    return fail(labNote('kubectl.exec-container', { container: opts.container, containers: pod.containers.map((c) => c.name).join(', ') })); // prettier-ignore
  const r = runInPod(registry, ctx, opts, name, command);
  if (typeof r === 'string') return fail(r);
  const ended = r.exitCode === 0 ? '' : `command terminated with exit code ${r.exitCode}\n`;
  if (opts.stdin && opts.tty) {
    // Through a TTY the two streams are one, and it arrives on kubectl's stdout.
    const stdout = r.writes === undefined ? r.stdout + r.stderr : mergeWrites(r.writes, true);
    return {
      stdout,
      stderr: ended,
      exitCode: r.exitCode,
      writes: [
        { fd: 1, text: stdout },
        { fd: 2, text: ended },
      ],
    };
  }
  const writes = r.writes ?? [
    { fd: 1 as const, text: r.stdout },
    { fd: 2 as const, text: r.stderr },
  ];
  return {
    stdout: r.stdout,
    stderr: r.stderr + ended,
    exitCode: r.exitCode,
    writes: [...writes, { fd: 2, text: ended }],
  };
}
