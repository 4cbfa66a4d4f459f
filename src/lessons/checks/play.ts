/**
 * Plays a step's solution actions in a World, as the learner does in the web lab: `TARGET$
 * COMMAND` lines through the lab's shell; manifests appended to the scenario text and scenario
 * edits, each followed by Apply (the scenario reloaded over the running cluster, as the
 * worker's apply does: objects that still exist keep their addresses, kube-proxy syncs or
 * restarts); and value answers recorded for the `answer` checks.
 */
import { diagnosticToString, loadScenario, runScript, type World } from '../../engine';
import type { SolutionAction } from '../types';

/** A lesson being played: the World, the editor's scenario text, the answers given. */
export interface Play {
  readonly world: World;
  text: string;
  readonly answers: Record<string, string>;
}

export interface PlayResult {
  /** Every command's prompt line and output, for a failing test to show. */
  readonly transcript: string;
  /** Errors of scenario texts the lab refused. */
  readonly applyErrors: readonly string[];
}

function applyText(play: Play, text: string, errors: string[]): void {
  const { cluster, diagnostics } = loadScenario(text, { previous: play.world.cluster });
  const bad = diagnostics.filter((d) => d.severity === 'error');
  if (bad.length > 0) {
    for (const d of bad) errors.push(diagnosticToString('scenario', d));
    return;
  }
  play.text = text;
  play.world.setCluster(cluster);
}

export function playActions(play: Play, actions: readonly SolutionAction[]): PlayResult {
  let transcript = '';
  const applyErrors: string[] = [];
  for (const action of actions) {
    if ('run' in action) {
      runScript(play.world, action.run, {
        readFile: () => undefined,
        onOutput: (line, r) => {
          transcript += `${line ?? ''}\n${r.stdout}${r.stderr}`;
        },
      });
    } else if ('apply' in action) {
      applyText(
        play,
        `${play.text.replace(/\s*$/, '\n')}${action.apply.replace(/^\n+/, '')}`,
        applyErrors,
      );
    } else if ('replace' in action) {
      if (!play.text.includes(action.replace)) {
        applyErrors.push(`the scenario has no ${JSON.stringify(action.replace)} to replace`);
      } else applyText(play, play.text.replace(action.replace, action.with), applyErrors);
    } else {
      play.answers[action.answer] = action.value;
    }
  }
  return { transcript, applyErrors };
}
