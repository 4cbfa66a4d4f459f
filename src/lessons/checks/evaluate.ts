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
 * A lesson being done in one World: remembers where the current step began in the trace, so
 * that trace checks judge only what happened since. When the World is replaced (the scenario
 * was edited and reloaded), the new World's trace counts from its start.
 */
export class LessonSession {
  private world: World;
  private stepStart: number;

  constructor(world: World) {
    this.world = world;
    this.stepStart = traceCursor(world);
  }

  /** The lab now runs in another World (a reloaded scenario). */
  replaceWorld(world: World): void {
    this.world = world;
    this.stepStart = 0;
  }

  /** The learner moved to a new step: only what happens from now on counts for its checks. */
  beginStep(): void {
    this.stepStart = traceCursor(this.world);
  }

  check(checks: readonly CheckSpec[], answers: Readonly<Record<string, string>>): CheckResult[] {
    return evaluateChecks(labFacts(this.world, this.stepStart), checks, answers);
  }
}
