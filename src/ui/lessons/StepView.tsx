/**
 * One step of a lesson: its text; predict-then-reveal questions, which must be answered before
 * the commands show; the YAML to add; the commands (./CommandList.tsx); value
 * questions; tiered hints; and the Check button, which asks the worker to judge the lab.
 */
import { useState } from 'react';
import type { CheckResult } from '../../protocol/lessons';
import { renderCheckMessage } from '../../lessons/messages';
import type { ChoiceQuestion, Lang, Lesson } from '../../lessons/types';
import { CommandList } from './CommandList';
import type { CommandOutput, LessonHost } from './host';
import { Markup } from './Markup';
import { ScaleChart } from './ScaleChart';
import type { LessonProgress } from './progress';
import { t } from './strings';

export interface StepViewProps {
  readonly lesson: Lesson;
  readonly index: number;
  readonly lang: Lang;
  readonly host: LessonHost;
  readonly progress: LessonProgress;
  readonly update: (change: Partial<LessonProgress>) => void;
  /** The step being worked (false: read-only, e.g. a lesson still waiting for a feature). */
  readonly active: boolean;
}

export function StepView({ lesson, index, lang, host, progress, update, active }: StepViewProps) {
  const step = lesson.steps[index]!;
  const [outputs, setOutputs] = useState<readonly CommandOutput[]>([]);
  const [results, setResults] = useState<readonly CheckResult[]>([]);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  // The edit's text was not in the scenario (nothing changed): said, not silently ignored.
  const [editMissing, setEditMissing] = useState(false);
  const predictions = step.predict ?? [];
  const predicted = predictions.every((q) => progress.chosen[q.id] !== undefined);
  const shownHints = progress.hints[step.id] ?? 0;
  const allPassed =
    (results.length > 0 && results.every((r) => r.passed)) ||
    (results.length === 0 && progress.done.includes(step.id));

  const runLines = async (lines: readonly string[], label: string) => {
    setBusy(label);
    try {
      for (const line of lines) {
        const out = await host.run(line);
        setOutputs((o) => [...o.slice(-19), out]);
      }
    } finally {
      setBusy(undefined);
    }
  };

  const check = async () => {
    setBusy('check');
    try {
      const r = await host.check(lesson.id, index, progress.answers);
      setResults(r);
      if (r.length > 0 && r.every((x) => x.passed) && !progress.done.includes(step.id)) {
        update({ done: [...progress.done, step.id] });
      }
    } finally {
      setBusy(undefined);
    }
  };

  const next = async () => {
    await host.beginStep();
    setResults([]);
    setOutputs([]);
    update({ step: index + 1 });
  };

  return (
    <div className="step" data-testid={`step-${step.id}`}>
      <Markup text={step.body[lang]} />

      {predictions.map((q) =>
        q.kind === 'choice' ? (
          <Prediction
            key={q.id}
            q={q}
            lang={lang}
            chosen={progress.chosen[q.id]}
            onChoose={(i) => update({ chosen: { ...progress.chosen, [q.id]: i } })}
            disabled={!active}
          />
        ) : null,
      )}

      {!predicted && active && <p className="muted">{t(lang, 'predictFirst')}</p>}

      {(predicted || !active) && (
        <>
          {step.edit !== undefined && (
            <div className="yaml">
              <h4>{t(lang, 'change')}</h4>
              <pre>
                {step.edit.replace}
                {'\n→\n'}
                {step.edit.with}
              </pre>
              {active && (
                <button
                  type="button"
                  data-testid="edit-scenario"
                  disabled={busy !== undefined}
                  onClick={() => {
                    setBusy('edit');
                    void host
                      .editAndApply(step.edit!.replace, step.edit!.with)
                      .then((changed) => setEditMissing(!changed))
                      .finally(() => setBusy(undefined));
                  }}
                >
                  {t(lang, 'applyEdit')}
                </button>
              )}
              {active && editMissing && (
                <p className="edit-missing" role="alert" data-testid="edit-missing">
                  {t(lang, 'editMissing')}
                </p>
              )}
            </div>
          )}
          {step.yaml !== undefined && (
            <div className="yaml">
              <h4>{t(lang, 'edit')}</h4>
              <pre>{step.yaml}</pre>
              {active && (
                <button
                  type="button"
                  data-testid="append-yaml"
                  disabled={busy !== undefined}
                  onClick={() => {
                    setBusy('yaml');
                    void host.appendAndApply(step.yaml!).finally(() => setBusy(undefined));
                  }}
                >
                  {t(lang, 'addYaml')}
                </button>
              )}
            </div>
          )}
          {(step.commands?.length ?? 0) > 0 && (
            <CommandList
              step={step}
              lang={lang}
              active={active}
              busy={busy}
              outputs={outputs}
              runLines={(lines, label) => void runLines(lines, label)}
              completeInTerminal={(command) => host.completeInTerminal(command)}
            />
          )}
          {step.chart === 'scale' && <ScaleChart host={host} lang={lang} />}
          {(step.ask ?? []).map((q) => (
            <label key={q.id} className="ask">
              <Markup text={q.prompt[lang]} />
              <input
                type="text"
                data-testid={`answer-${q.id}`}
                placeholder={q.placeholder}
                aria-label={t(lang, 'answer')}
                disabled={!active}
                value={progress.answers[q.id] ?? ''}
                onChange={(e) =>
                  update({ answers: { ...progress.answers, [q.id]: e.target.value } })
                }
              />
              {allPassed && (
                <span className="reveal">
                  <Markup text={q.reveal[lang]} />
                </span>
              )}
            </label>
          ))}
        </>
      )}

      {active && (
        <div className="step-actions">
          <button
            type="button"
            className="primary"
            data-testid="check"
            disabled={busy !== undefined || !predicted}
            onClick={() => void check()}
          >
            {busy === 'check' ? t(lang, 'checking') : t(lang, 'check')}
          </button>
          {shownHints < step.hints.length && (
            <button
              type="button"
              data-testid="hint"
              onClick={() => update({ hints: { ...progress.hints, [step.id]: shownHints + 1 } })}
            >
              {t(lang, 'hint', { n: shownHints + 1 })}
            </button>
          )}
        </div>
      )}
      {step.hints.slice(0, active ? shownHints : 0).map((h, i) => (
        <aside key={i} className={`hint tier-${i + 1}`} data-testid={`hint-${i + 1}`}>
          <Markup text={h[lang]} />
        </aside>
      ))}

      {results.length > 0 && (
        <ul className="results" data-testid="check-results">
          {step.checks.map((spec) => {
            const r = results.find((x) => x.id === spec.id);
            if (r === undefined) return null;
            return (
              <li key={spec.id} className={r.passed ? 'pass' : 'fail'} data-passed={r.passed}>
                <span aria-hidden>{r.passed ? '✓' : '✗'}</span> {spec.label[lang]}
                <div className="muted">
                  {renderCheckMessage(lang, r.message.id, r.message.params)}
                </div>
                {r.histogram !== undefined && <Histogram bars={r.histogram} lang={lang} />}
              </li>
            );
          })}
        </ul>
      )}

      {allPassed && (
        <div className="step-done" data-testid="step-done">
          <strong>{t(lang, 'stepDone')}</strong>
          {step.takeaway !== undefined && <Markup text={step.takeaway[lang]} />}
          {index + 1 < lesson.steps.length && (
            <button
              type="button"
              className="primary"
              data-testid="next-step"
              onClick={() => void next()}
            >
              {t(lang, 'next')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

function Prediction(props: {
  q: ChoiceQuestion;
  lang: Lang;
  chosen: number | undefined;
  onChoose: (i: number) => void;
  disabled: boolean;
}) {
  const { q, lang, chosen } = props;
  const revealed = chosen !== undefined;
  return (
    <fieldset className="predict" data-testid={`predict-${q.id}`}>
      <legend>
        {t(lang, 'predict')}: <Markup text={q.prompt[lang]} />
      </legend>
      {q.choices.map((c, i) => (
        <label key={i} className={revealed && c.correct ? 'correct' : ''}>
          <input
            type="radio"
            name={q.id}
            checked={chosen === i}
            disabled={revealed || props.disabled}
            onChange={() => props.onChoose(i)}
          />
          {c.text[lang]}
        </label>
      ))}
      {revealed && (
        <div className="reveal" data-testid={`reveal-${q.id}`}>
          <strong>{q.choices[chosen]?.correct ? t(lang, 'right') : t(lang, 'wrong')}</strong>
          <Markup text={q.reveal[lang]} />
        </div>
      )}
    </fieldset>
  );
}

function Histogram({
  bars,
  lang,
}: {
  bars: readonly { label: string; count: number }[];
  lang: Lang;
}) {
  const max = Math.max(1, ...bars.map((b) => b.count));
  return (
    <figure className="histogram" data-testid="histogram">
      <figcaption>{t(lang, 'histogram')}</figcaption>
      {bars.map((b) => (
        <div key={b.label} className="bar-row">
          <span className="bar-label">{b.label}</span>
          <span className="bar" style={{ width: `${(100 * b.count) / max}%` }} />
          <span className="bar-count">{b.count}</span>
        </div>
      ))}
    </figure>
  );
}
