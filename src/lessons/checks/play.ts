/**
 * Plays a step's solution actions in a World, as the learner would: `TARGET$ COMMAND` lines
 * through the lab's shell, manifests through the API server (what saving an edit in the
 * editor or `kubectl apply` does), and value answers recorded for the `answer` checks.
 */
import { diagnosticToString, runScript, type World } from '../../engine';
import type { SolutionAction } from '../types';

export interface PlayResult {
  /** Every command's prompt line and output, for a failing test to show. */
  readonly transcript: string;
  /** Error lines of manifests the API server refused. */
  readonly applyErrors: readonly string[];
}

export function playActions(
  world: World,
  actions: readonly SolutionAction[],
  answers: Record<string, string>,
): PlayResult {
  let transcript = '';
  const applyErrors: string[] = [];
  for (const action of actions) {
    if ('run' in action) {
      runScript(world, action.run, {
        readFile: () => undefined,
        onOutput: (line, r) => {
          transcript += `${line ?? ''}\n${r.stdout}${r.stderr}`;
        },
      });
    } else if ('apply' in action) {
      const result = world.apply(action.apply);
      for (const d of result.diagnostics) {
        if (d.severity === 'error') applyErrors.push(diagnosticToString('apply', d));
      }
      for (const r of result.results) transcript += `(apply) ${r.kind}/${r.name} ${r.action}\n`;
    } else {
      answers[action.answer] = action.value;
    }
  }
  return { transcript, applyErrors };
}
