/**
 * `kube-proxy-lab run [--echo]` in-process on a script: its exit status, stdout and stderr.
 * Files the script names read through `readFile` (none by default).
 */
import { main } from '../../src/cli/main';

export interface CliRunOptions {
  readonly echo?: boolean;
  readonly readFile?: (path: string) => string | undefined;
}

export async function runCli(script: string, opts: CliRunOptions = {}) {
  let out = '';
  let err = '';
  const status = await main(opts.echo === true ? ['run', '--echo'] : ['run'], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    readFile: opts.readFile ?? (() => undefined),
    readStdin: () => script,
  });
  return { status, out, err };
}

export interface BlocksOptions {
  /** A scenario to run instead of the built-in one. */
  readonly scenario?: string;
  /** Keep each block's trailing newlines as printed (default: the last line's one only). */
  readonly raw?: boolean;
}

/**
 * `kube-proxy-lab run --echo` in-process, stdout and stderr together, cut into the output of
 * each command (the text after each prompt line).
 */
export async function runBlocks(script: string, opts: BlocksOptions = {}): Promise<string[]> {
  let all = '';
  const scenario = opts.scenario;
  await main(['run', '--echo', ...(scenario !== undefined ? ['scenario.yaml'] : [])], {
    stdout: (t) => (all += t),
    stderr: (t) => (all += t),
    readFile: (p) => (p === 'scenario.yaml' ? scenario : undefined),
    readStdin: () => script,
  });
  const out: string[] = [];
  for (const l of all.split('\n')) {
    if (/^(node-\d|pod\/\S+)\$ /.test(l)) out.push('');
    else if (out.length > 0) out[out.length - 1] += `${l}\n`;
  }
  return opts.raw === true ? out : out.map((o) => o.replace(/\n+$/, '\n'));
}
