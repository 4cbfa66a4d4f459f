/**
 * Every lesson's data is complete in both languages and consistent with itself: texts exist in
 * zh-CN (with Chinese in it) and English, hints come in three tiers, ids are unique, every
 * choice question has one right answer, every value question is judged by an `answer` check,
 * every check names a kind the checker knows, and every command line is a `TARGET$ COMMAND`
 * line whose target exists in the lesson's scenario.
 */
import { describe, expect, it } from 'vitest';
import { World } from '../../src/engine';
import { parseScript, resolveTarget } from '../../src/engine/commands/script';
import { LESSONS } from '../../src/lessons/catalog';
import { CHECK_KINDS } from '../../src/lessons/checks';
import { commandLine, isToComplete } from '../../src/lessons/step-commands';
import type { Lesson, Text } from '../../src/lessons/types';

const CJK = /[\u4e00-\u9fff]/;

function texts(lesson: Lesson): [string, Text][] {
  const out: [string, Text][] = [
    ['title', lesson.title],
    ['goal', lesson.goal],
    ['textbook', lesson.textbook],
  ];
  if (lesson.simplification) out.push(['simplification', lesson.simplification]);
  if (lesson.waitingFor) out.push(['waitingFor', lesson.waitingFor.note]);
  for (const s of lesson.steps) {
    out.push([`${s.id}.title`, s.title], [`${s.id}.body`, s.body]);
    s.hints.forEach((h, i) => out.push([`${s.id}.hint${i + 1}`, h]));
    if (s.takeaway) out.push([`${s.id}.takeaway`, s.takeaway]);
    for (const q of [...(s.predict ?? []), ...(s.ask ?? [])]) {
      out.push([`${s.id}.${q.id}.prompt`, q.prompt], [`${s.id}.${q.id}.reveal`, q.reveal]);
      if (q.kind === 'choice')
        q.choices.forEach((c, i) => out.push([`${q.id}.choice${i}`, c.text]));
    }
    for (const c of s.checks) out.push([`${s.id}.${c.id}.label`, c.label]);
    (s.commands ?? [])
      .filter(isToComplete)
      .forEach((c, i) => out.push([`${s.id}.fill${i}`, c.fill]));
  }
  return out;
}

describe.each(LESSONS.map((l) => [l.id, l] as const))('lesson %s', (_id, lesson) => {
  it('has every text in zh-CN and English', () => {
    for (const [where, t] of texts(lesson)) {
      expect(t.en.trim(), `${where} en`).not.toBe('');
      expect(t['zh-CN'].trim(), `${where} zh-CN`).not.toBe('');
      // Choice texts may be a bare command or number in both languages.
      if (!where.includes('.choice')) expect(t['zh-CN'], `${where} zh-CN`).toMatch(CJK);
    }
  });

  it('has unique ids, one right answer per choice, and a judge for every value question', () => {
    expect(lesson.id).toMatch(new RegExp(`^${String(lesson.number).padStart(2, '0')}-`));
    const stepIds = lesson.steps.map((s) => s.id);
    expect(new Set(stepIds).size).toBe(stepIds.length);
    for (const s of lesson.steps) {
      const checkIds = s.checks.map((c) => c.id);
      expect(new Set(checkIds).size, s.id).toBe(checkIds.length);
      for (const q of s.predict ?? []) {
        if (q.kind === 'choice') expect(q.choices.filter((c) => c.correct).length, q.id).toBe(1);
      }
      for (const q of s.ask ?? []) {
        const judged = s.checks.some((c) => c.kind === 'answer' && c.params.question === q.id);
        expect(judged || lesson.waitingFor !== undefined, `${s.id}: ${q.id} is never judged`).toBe(
          true,
        );
      }
      for (const c of s.checks) expect(CHECK_KINDS[c.kind], `${s.id}: ${c.kind}`).toBeDefined();
      if (lesson.waitingFor === undefined) {
        expect(s.checks.length, `${s.id} has no checks`).toBeGreaterThan(0);
        expect(s.solution.length, `${s.id} has no solution`).toBeGreaterThan(0);
      }
    }
  });

  it('names only hosts its scenario has in its command lines', () => {
    const { world } = World.fromScenario(lesson.scenario);
    for (const s of lesson.steps) {
      const lines = [...(s.commands ?? []).map(commandLine), ...(s.batch ? [s.batch.command] : [])];
      const parsed = parseScript(lines.join('\n'));
      expect(parsed.diagnostics, s.id).toEqual([]);
      for (const line of parsed.lines) {
        expect(typeof resolveTarget(world.cluster, line.target), line.targetText).not.toBe(
          'string',
        );
      }
    }
  });
});
