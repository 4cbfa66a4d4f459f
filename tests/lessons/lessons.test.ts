/**
 * Every lesson's reference solution, played step by step through the engine (as the learner
 * would: shell commands, manifests, answers). For every step, every check must be seen failing
 * somewhere (in the fresh lab, at the step's start, or after the step's deliberately wrong
 * attempt, whose listed checks must fail); after the solution, all of them must pass. A check that cannot
 * fail, or a solution that does not satisfy its own step, fails the test.
 */
import { describe, expect, it } from 'vitest';
import { World } from '../../src/engine';
import { LESSONS } from '../../src/lessons/catalog';
import { evaluateChecks, playActions, type Play } from '../../src/lessons/checks';
import { labFacts, traceCursor } from '../../src/engine';
import type { Lesson } from '../../src/lessons/types';

function fresh(lesson: Lesson): World {
  const { world, diagnostics } = World.fromScenario(lesson.scenario);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return world;
}

/** Plays steps 0..upTo-1 fully: the World, the editor's text and the answers given so far. */
function playUpTo(lesson: Lesson, upTo: number): Play {
  const play: Play = { world: fresh(lesson), text: lesson.scenario, answers: {} };
  for (const step of lesson.steps.slice(0, upTo)) {
    expect(playActions(play, step.solution).applyErrors).toEqual([]);
  }
  return play;
}

const ready = LESSONS.filter((l) => l.waitingFor === undefined);

describe.each(ready.map((l) => [l.id, l] as const))('lesson %s', (_id, lesson) => {
  it('loads its scenario without errors', () => {
    fresh(lesson);
  });

  it.each(lesson.steps.map((s, i) => [s.id, i] as const))(
    'step %s: its checks fail before the solution and pass after it',
    (_step, index) => {
      const step = lesson.steps[index]!;
      const play = playUpTo(lesson, index);
      const { world, answers } = play;
      const start = traceCursor(world);
      const failedSomewhere = new Set<string>();
      // At the lesson's start (a fresh lab, nothing answered), …
      const pristine = fresh(lesson);
      for (const r of evaluateChecks(labFacts(pristine, 0), step.checks, {})) {
        if (!r.passed) failedSomewhere.add(r.id);
      }
      // … at the step's start, …
      for (const r of evaluateChecks(labFacts(world, start), step.checks, answers)) {
        if (!r.passed) failedSomewhere.add(r.id);
      }
      // … and after the step's deliberately wrong attempt.
      if (step.wrong !== undefined) {
        const alt = playUpTo(lesson, index);
        const altStart = traceCursor(alt.world);
        playActions(alt, step.wrong.actions);
        const results = evaluateChecks(labFacts(alt.world, altStart), step.checks, alt.answers);
        for (const r of results) if (!r.passed) failedSomewhere.add(r.id);
        for (const id of step.wrong.failing) {
          expect(results.find((r) => r.id === id)?.passed, `wrong attempt: ${id}`).toBe(false);
        }
      }
      const played = playActions(play, step.solution);
      expect(played.applyErrors).toEqual([]);
      const after = evaluateChecks(labFacts(world, start), step.checks, answers);
      for (const r of after) {
        expect(r.passed, `${r.id}: ${JSON.stringify(r.message)}\n${played.transcript}`).toBe(true);
      }
      for (const c of step.checks) {
        expect(failedSomewhere.has(c.id), `check ${c.id} never failed`).toBe(true);
      }
    },
  );
});
