/**
 * What the lab's agnhost netexec pod at 10.244.1.2:8080 (the default scenario's web pod on
 * node-2) answers, as `curl -sv` from pod/client shows it: the response head (the `< ` lines,
 * unprefixed) and the body. The kernel tests replay it from a real HTTP server in their
 * namespace, so the real client (curl, wget) reads the same bytes the lab's client reads.
 */
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';

export const LAB_WEB_POD = '10.244.1.2';

export function labPodAnswer(curlFlags: string, path = '/'): { head: string; body: string } {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  let out = { stdout: '', stderr: '' };
  const flags = curlFlags === '' ? '' : ` ${curlFlags}`;
  runScript(world, `pod/client$ curl -sv${flags} http://${LAB_WEB_POD}:8080${path}`, {
    readFile: () => undefined,
    onOutput: (_l, r) => (out = r),
  });
  const head = out.stderr
    .split('\n')
    .filter((l) => l.startsWith('< '))
    .map((l) => l.slice(2))
    .join('\n');
  return { head, body: out.stdout };
}
