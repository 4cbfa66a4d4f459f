/**
 * Runs a step's checks against the lab: the worker calls this with its World, the lesson tests
 * with theirs. A check kind the lesson names but this version does not know fails with a
 * message instead of throwing (lesson data and checker may come from different versions).
 */
import { labFacts, traceCursor, type LabFacts, type World } from '../../engine';
import type { CheckResult } from '../../protocol/lessons';
import type { CheckSpec } from '../types';
import { CHECK_KINDS } from './kinds';

export function evaluateChecks(
  facts: LabFacts,
  checks: readonly CheckSpec[],
  answers: Readonly<Record<string, string>> = {},
): CheckResult[] {
  return checks.map((spec) => {
    const fn = CHECK_KINDS[spec.kind];
    if (fn === undefined) {
      return {
        id: spec.id,
        passed: false,
        message: { id: 'check.unknown', params: { kind: spec.kind } },
      };
    }
    return { id: spec.id, ...fn({ facts, params: spec.params, answers }) };
  });
}

/**
 * Where the current step began, for the lab host (the worker) that owns the World: trace checks
 * judge only what happened since. A World that replaced the one the step began in (the
 * scenario was reloaded) counts from its own start.
 */
export class LessonTracker {
  private world: World | undefined;
  private stepStart = 0;

  /** The learner moved to a step: only what happens from now on counts for its checks. */
  beginStep(world: World): void {
    this.world = world;
    this.stepStart = traceCursor(world);
  }

  check(
    world: World,
    checks: readonly CheckSpec[],
    answers: Readonly<Record<string, string>>,
  ): CheckResult[] {
    const from = world === this.world ? this.stepStart : 0;
    return evaluateChecks(labFacts(world, from), checks, answers);
  }
}
