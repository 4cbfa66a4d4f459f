/**
 * The pieces the worker uses around the checks: the step's start in the trace (and a reloaded
 * World counting from its own start), unknown check kinds, and how typed answers compare.
 */
import { describe, expect, it } from 'vitest';
import { runScript, World } from '../../src/engine';
import { findLesson } from '../../src/lessons/catalog';
import { evaluateChecks, LessonTracker } from '../../src/lessons/checks';
import { sameValue } from '../../src/lessons/checks/facts-values';
import { labFacts } from '../../src/engine';
import type { CheckSpec } from '../../src/lessons/types';

const lesson = findLesson('09-same-node-bridge')!;
const RECEIVED: CheckSpec = lesson.steps[0]!.checks[0]!;

function run(world: World, script: string): void {
  runScript(world, script, { readFile: () => undefined, onOutput: () => {} });
}

describe('LessonTracker', () => {
  it('judges trace checks on what happened since the step began', () => {
    const { world } = World.fromScenario(lesson.scenario);
    const tracker = new LessonTracker();
    run(world, 'pod/client$ curl -sS -m 2 http://10.96.1.11/');
    tracker.beginStep(world);
    expect(tracker.check(world, [RECEIVED], {})[0]!.passed).toBe(false);
    run(world, 'pod/client$ curl -sS -m 2 http://10.96.1.11/');
    expect(tracker.check(world, [RECEIVED], {})[0]!.passed).toBe(true);
  });

  it('counts a reloaded World from its own start', () => {
    const tracker = new LessonTracker();
    const first = World.fromScenario(lesson.scenario).world;
    run(first, 'pod/client$ curl -sS -m 2 http://10.96.1.11/');
    tracker.beginStep(first);
    const second = World.fromScenario(lesson.scenario).world;
    run(second, 'pod/client$ curl -sS -m 2 http://10.96.1.11/');
    expect(tracker.check(second, [RECEIVED], {})[0]!.passed).toBe(true);
  });
});

describe('checks', () => {
  it('fail with a message for a kind this version does not know', () => {
    const { world } = World.fromScenario(lesson.scenario);
    const spec: CheckSpec = {
      id: 'x',
      kind: 'no-such-kind',
      params: {},
      label: { 'zh-CN': '', en: '' },
    };
    expect(evaluateChecks(labFacts(world), [spec], {})).toEqual([
      {
        id: 'x',
        passed: false,
        message: { id: 'check.unknown', params: { kind: 'no-such-kind' } },
      },
    ]);
  });

  it('compare answers without regard to case, quotes, blanks or number formatting', () => {
    expect(sameValue(' "IPTables" ', 'iptables')).toBe(true);
    expect(sameValue('0.333', '0.33333333349')).toBe(true);
    expect(sameValue('0.5', '0.33333333349')).toBe(false);
    expect(sameValue('', '')).toBe(false);
    expect(sameValue('kube-svc-stdnofai3eezdiva', 'KUBE-SVC-STDNOFAI3EEZDIVA')).toBe(true);
  });
});
