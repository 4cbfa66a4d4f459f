/**
 * The worker's lesson calls: a step's checks are judged on the running lab, counting only what
 * happened since the step began, and a reloaded scenario starts the count afresh.
 */
import { describe, expect, it } from 'vitest';
import { findLesson } from '../../src/lessons/catalog';
import { LabSession } from '../../src/worker/lab-session';

const lesson = findLesson('09-same-node-bridge')!;

describe('LabSession lessons', () => {
  it('judges step 1 of lesson 9 before and after its commands', () => {
    const lab = new LabSession();
    expect(lab.load(lesson.scenario).accepted).toBe(true);
    lab.lessonBeginStep();
    expect(lab.lessonCheck(lesson.id, 0, {}).map((r) => r.passed)).toEqual([false, false]);
    lab.run('pod/client', 'curl -sS -m 2 http://10.96.1.11/');
    expect(lab.lessonCheck(lesson.id, 0, {}).map((r) => r.passed)).toEqual([true, true]);
  });

  it('counts trace checks from the step start, and answers unknown lessons with nothing', () => {
    const lab = new LabSession();
    lab.load(lesson.scenario);
    lab.run('pod/client', 'curl -sS -m 2 http://10.96.1.11/');
    lab.lessonBeginStep();
    const [received] = lab.lessonCheck(lesson.id, 0, {});
    expect(received).toMatchObject({ id: 'answered-from-vip', passed: false });
    expect(lab.lessonCheck('no-such-lesson', 0, {})).toEqual([]);
  });
});
