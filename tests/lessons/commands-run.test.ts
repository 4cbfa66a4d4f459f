/**
 * Every command a lesson lists runs as written in that lesson's lab, since the panel's Run
 * button runs it exactly so. Played as a learner using the panel's buttons: the steps before
 * done (their reference solutions played), the step's YAML and edit applied, then each listed
 * line in order. A line that cannot run as written — a placeholder, a pod or chain the
 * scenario does not have, a command or option the lab's shell refuses — fails here. Failures
 * a lesson shows on purpose (curl timing out at a dropped SYN, reading from a connection its
 * peer closed, `grep -c` counting 0) are outcomes of commands that did run, and pass.
 *
 * A command to complete (CommandToComplete) is never run as written: its placeholder must be a
 * word of the line, the line must indeed fail as written, and the step's solution must run the
 * line with the placeholder filled in, so the learner completes a command that works.
 */
import { describe, expect, it } from 'vitest';
import { runScript, World } from '../../src/engine';
import { LESSONS } from '../../src/lessons/catalog';
import { playActions, type Play } from '../../src/lessons/checks';
import { isToComplete } from '../../src/lessons/step-commands';
import type { Lesson } from '../../src/lessons/types';

/**
 * What the lab prints when a line cannot run as written, as the real tools do: bash for a
 * missing command (exit 127, also the lab's "not modelled" note) or a syntax error (exit 2);
 * kubectl's `Error from server (NotFound): pods "x" not found` and cobra's `unknown flag` /
 * `unknown command`; iptables 1.8.9 (nf_tables) listing a chain that does not exist (`chain
 * `X' in table `nat' is incompatible, use 'nft' tool.`; legacy iptables says `No chain/target/
 * match by that name.`); the lab's script runner for a host the scenario does not have.
 */
const CANNOT_RUN =
  /not found|NotFound|unknown (flag|shorthand|command)|is incompatible, use 'nft' tool|No chain\/target\/match|kube-proxy-lab: script line/;

interface Ran {
  readonly line: string;
  readonly exitCode: number;
  readonly stderr: string;
}

function run(play: Play, line: string): Ran {
  let ran: Ran = { line, exitCode: 0, stderr: '' };
  runScript(play.world, line, {
    readFile: () => undefined,
    onOutput: (_prompt, r) => {
      ran = { line, exitCode: r.exitCode, stderr: ran.stderr + r.stderr };
    },
  });
  return ran;
}

function cannotRun(ran: Ran): boolean {
  return ran.exitCode === 127 || ran.exitCode === 2 || CANNOT_RUN.test(ran.stderr);
}

/** The lab after steps 0..upTo-1, each done by its reference solution. */
function playUpTo(lesson: Lesson, upTo: number): Play {
  const play: Play = {
    world: World.fromScenario(lesson.scenario).world,
    text: lesson.scenario,
    answers: {},
  };
  for (const step of lesson.steps.slice(0, upTo)) playActions(play, step.solution);
  return play;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const ready = LESSONS.filter((l) => l.waitingFor === undefined);

describe.each(ready.map((l) => [l.id, l] as const))('lesson %s', (_id, lesson) => {
  it.each(lesson.steps.map((s, i) => [s.id, i] as const))(
    'step %s: every listed command runs as written, or is one to complete',
    (_step, index) => {
      const step = lesson.steps[index]!;
      const play = playUpTo(lesson, index);
      // The panel's buttons: the YAML first (an edit may change what it added), then the edit.
      const buttons = [
        ...(step.yaml !== undefined ? [{ apply: step.yaml }] : []),
        ...(step.edit !== undefined ? [step.edit] : []),
      ];
      expect(playActions(play, buttons).applyErrors).toEqual([]);
      const lines = [...(step.commands ?? []), ...(step.batch ? [step.batch.command] : [])];
      for (const command of lines) {
        if (isToComplete(command)) {
          const words = command.line.split(/\s+/);
          expect(
            words.filter((w) => w === command.placeholder),
            command.line,
          ).toHaveLength(1);
          const asWritten = run(playUpTo(lesson, index), command.line);
          expect(cannotRun(asWritten), `${command.line} runs as written`).toBe(true);
          const completed = new RegExp(
            `^${escape(command.line).replace(escape(command.placeholder), '\\S+')}$`,
            'm',
          );
          const solutionRuns = step.solution.flatMap((a) => ('run' in a ? [a.run] : []));
          expect(solutionRuns.join('\n'), `the solution completes ${command.line}`).toMatch(
            completed,
          );
          continue;
        }
        const ran = run(play, command);
        expect(cannotRun(ran), `${command}\nexit ${ran.exitCode}\n${ran.stderr}`).toBe(false);
      }
    },
  );
});
