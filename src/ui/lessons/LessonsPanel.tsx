/**
 * The lessons side panel: the list of lessons with the learner's progress, and the open lesson
 * (goal, notes, steps). The current step is worked in StepView; progress is saved in the
 * browser after every change.
 */
import { useCallback, useEffect, useState } from 'react';
import { LESSONS, findLesson } from '../../lessons/catalog';
import type { Lang, Lesson } from '../../lessons/types';
import type { LessonHost } from './host';
import { Markup } from './Markup';
import {
  lessonProgress,
  loadProgress,
  saveProgress,
  withLesson,
  type LessonProgress,
  type Progress,
} from './progress';
import { StepView } from './StepView';
import { t } from './strings';

export interface LessonsPanelProps {
  readonly host: LessonHost;
  readonly lang: Lang;
  readonly storage: Storage | undefined;
}

export function LessonsPanel({ host, lang, storage }: LessonsPanelProps) {
  const [progress, setProgress] = useState<Progress>(() => loadProgress(storage));
  useEffect(() => saveProgress(storage, progress), [storage, progress]);
  const lesson = progress.open !== undefined ? findLesson(progress.open) : undefined;

  const update = useCallback(
    (id: string, change: Partial<LessonProgress>) => setProgress((p) => withLesson(p, id, change)),
    [],
  );

  return (
    <section className="lessons" data-testid="lessons-panel" aria-label={t(lang, 'lessons')}>
      {lesson === undefined ? (
        <LessonList
          lang={lang}
          progress={progress}
          onOpen={(id) => setProgress((p) => ({ ...p, open: id }))}
        />
      ) : (
        <LessonView
          key={lesson.id}
          lesson={lesson}
          lang={lang}
          host={host}
          progress={lessonProgress(progress, lesson.id)}
          update={(change) => update(lesson.id, change)}
          onBack={() => setProgress((p) => ({ ...p, open: undefined }))}
        />
      )}
    </section>
  );
}

function LessonList(props: { lang: Lang; progress: Progress; onOpen: (id: string) => void }) {
  const { lang, progress } = props;
  return (
    <>
      <h2>{t(lang, 'lessons')}</h2>
      <ol className="lesson-list">
        {LESSONS.map((l) => {
          const done = lessonProgress(progress, l.id).done.length;
          return (
            <li key={l.id}>
              <button
                type="button"
                data-testid={`lesson-${l.id}`}
                onClick={() => props.onOpen(l.id)}
              >
                <span className="lesson-number">{l.number}</span>
                <span className="lesson-title">{l.title[lang]}</span>
                <span className="lesson-progress">
                  {l.waitingFor !== undefined
                    ? t(lang, 'waiting')
                    : t(lang, 'progress', { done, total: l.steps.length })}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </>
  );
}

function LessonView(props: {
  lesson: Lesson;
  lang: Lang;
  host: LessonHost;
  progress: LessonProgress;
  update: (change: Partial<LessonProgress>) => void;
  onBack: () => void;
}) {
  const { lesson, lang, host, progress, update } = props;
  const [started, setStarted] = useState(false);
  const [busy, setBusy] = useState(false);
  /**
   * Starts afresh, or continues: the lab's state is not kept across visits, so continuing
   * reloads the scenario and replays the reference solution of every step already done.
   */
  const start = async (mode: 'fresh' | 'continue') => {
    setBusy(true);
    try {
      await host.loadScenario(lesson.id, lesson.scenario);
      if (mode === 'fresh') update({ step: 0, done: [], chosen: {}, answers: {}, hints: {} });
      else {
        for (const step of lesson.steps) {
          if (!progress.done.includes(step.id)) continue;
          for (const action of step.solution) {
            if ('run' in action) for (const line of action.run.split('\n')) await host.run(line);
            else if ('apply' in action) await host.appendAndApply(action.apply);
            else if ('replace' in action) await host.editAndApply(action.replace, action.with);
          }
        }
      }
      await host.beginStep();
      setStarted(true);
    } finally {
      setBusy(false);
    }
  };
  const complete = progress.done.length === lesson.steps.length && lesson.steps.length > 0;
  return (
    <article className="lesson" data-testid="lesson-view">
      <button type="button" className="link" onClick={props.onBack}>
        {t(lang, 'back')}
      </button>
      <h2>
        {lesson.number}. {lesson.title[lang]}
      </h2>
      <h3>{t(lang, 'goal')}</h3>
      <Markup text={lesson.goal[lang]} />
      <p className="textbook">
        {t(lang, 'textbook')}: {lesson.textbook[lang]}
      </p>
      {lesson.simplification !== undefined && (
        <aside className="note">
          <strong>{t(lang, 'simplification')}</strong>
          <Markup text={lesson.simplification[lang]} />
        </aside>
      )}
      {lesson.waitingFor !== undefined && (
        <aside className="note waiting" data-testid="lesson-waiting">
          <strong>{t(lang, 'waiting')}</strong>
          <Markup text={lesson.waitingFor.note[lang]} />
        </aside>
      )}
      {!started && (
        <div className="lesson-actions">
          {progress.done.length > 0 && (
            <button
              type="button"
              className="primary"
              data-testid="lesson-continue"
              disabled={busy}
              onClick={() => void start('continue')}
            >
              {t(lang, 'continue')}
            </button>
          )}
          <button
            type="button"
            className={progress.done.length > 0 ? '' : 'primary'}
            data-testid="lesson-start"
            disabled={busy}
            onClick={() => void start('fresh')}
          >
            {progress.done.length > 0 ? t(lang, 'restart') : t(lang, 'start')}
          </button>
        </div>
      )}
      <ol className="steps">
        {lesson.steps.map((step, i) => {
          const done = progress.done.includes(step.id);
          const current = started && i === progress.step;
          return (
            <li key={step.id} className={`${done ? 'done' : ''}${current ? ' current' : ''}`}>
              <h3>
                {done ? '✓ ' : ''}
                {t(lang, 'step', { n: i + 1 })} · {step.title[lang]}
              </h3>
              {(current || (!started && i === 0) || lesson.waitingFor !== undefined) && (
                <StepView
                  lesson={lesson}
                  index={i}
                  lang={lang}
                  host={host}
                  progress={progress}
                  update={update}
                  active={current && lesson.waitingFor === undefined}
                />
              )}
            </li>
          );
        })}
      </ol>
      {complete && (
        <p className="lesson-done" data-testid="lesson-complete">
          {t(lang, 'lessonDone')}
        </p>
      )}
    </article>
  );
}
