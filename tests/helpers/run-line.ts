/**
 * One command line on a host of the built-in scenario, in a fresh World: the command's
 * stdout, stderr and exit status, as the lab's terminal would show them.
 */
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';

export function runLine(target: string, line: string) {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  let out = { stdout: '', stderr: '', exitCode: -1 };
  runScript(world, `${target}$ ${line}`, {
    readFile: () => undefined,
    onOutput: (_l, r) => (out = r),
  });
  return out;
}
