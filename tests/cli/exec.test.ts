/**
 * `kubectl exec` through the CLI. Expected texts: kubectl 1.33's (pkg/cmd/exec: the removed
 * `exec POD COMMAND` form and the missing command are usage errors, with `See 'kubectl exec -h'
 * for help and examples`), client-go's `command terminated with exit code N` (remotecommand's
 * CodeExitError, which kubectl exits with), and curl's own lines (its meter shows when its
 * stdout is not a terminal: without -it the pod's stdout is a pipe).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run';

const run = (script: string) => runCli(script);

describe('kubectl exec', () => {
  it('runs the command in the pod: same answer, same source address as a pod/ line', async () => {
    const r = await run('node-1$ kubectl exec client -- curl -s http://10.96.1.1/');
    expect(r.out).toMatch(/^web-\S+ \(10\.244\.\d\.\d+:8080\): you are 10\.244\.0\.5:\d+\n$/);
    expect(r.status).toBe(0);
  });

  it("passes a failure's status on, after client-go's line; -it merges the streams", async () => {
    const piped = await run('node-1$ kubectl exec client -- curl -m 1 http://10.96.1.1:81/');
    expect(piped.status).toBe(28);
    expect(piped.out).toBe('');
    // No TTY: curl's stdout is a pipe, so its meter is on stderr before its error.
    expect(piped.err).toMatch(/^ {2}% Total {4}% Received/);
    expect(
      piped.err.endsWith(
        'curl: (28) Connection timed out after 1001 milliseconds\ncommand terminated with exit code 28\n',
      ),
    ).toBe(true);
    const tty = await run('node-1$ kubectl exec -it client -- curl -m 1 http://10.96.1.1:81/');
    expect(tty.out).toBe('curl: (28) Connection timed out after 1001 milliseconds\n');
    expect(tty.err).toBe('command terminated with exit code 28\n');
  });

  it('runs sh -c LINE through the shell, in the pod', async () => {
    const r = await run(
      "node-1$ kubectl exec client -- sh -c 'for i in 1 2 3; do curl -s 10.96.1.1/clientip; echo; done'",
    );
    expect(r.out).toMatch(/^(10\.244\.0\.5:\d+\n){3}$/);
  });

  it('answers bad lines as kubectl does, and says what the lab does not model', async () => {
    const r = await run(
      [
        'node-1$ kubectl exec client curl 10.96.1.1',
        'node-1$ kubectl exec client',
        'node-1$ kubectl exec nope -- curl x',
        'node-1$ kubectl exec -it client -- sh',
      ].join('\n'),
    );
    expect(r.err).toBe(
      'error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\n' +
        "See 'kubectl exec -h' for help and examples\n" +
        'error: you must specify at least one command for the container\n' +
        "See 'kubectl exec -h' for help and examples\n" +
        'Error from server (NotFound): pods "nope" not found\n' +
        'lab: an interactive shell is not modelled; give the command (kubectl exec POD -- curl …, or sh -c "…"), or run it on a pod/NAMESPACE/NAME line or the terminal\'s pod\n',
    );
    expect(r.status).toBe(1);
  });
});
