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
