/**
 * The event list (Packet Tracer's): every step of the trace, or only the key ones; a click
 * moves playback there and opens the step in the inspector.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { stepTitle } from '../packets/format';
import { useLab } from '../store';
import { isKeyStep } from '../store/trace-model';

export function EventsPanel() {
  const { t } = useTranslation();
  const trace = useLab((s) => s.trace);
  const cursor = useLab((s) => s.cursor);
  const allSteps = useLab((s) => s.allSteps);
  const toggleAllSteps = useLab((s) => s.toggleAllSteps);
  const seek = useLab((s) => s.seek);
  const setTab = useLab((s) => s.setTab);
  const ref = useRef<HTMLOListElement>(null);
  useEffect(() => {
    ref.current?.querySelector('[aria-current="step"]')?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);
  if (trace === undefined) return <p className="muted">{t('events.none')}</p>;
  return (
    <div className="events-panel">
      <div className="panel-tools">
        <label>
          <input type="checkbox" checked={allSteps} onChange={toggleAllSteps} /> {t('events.all')}
        </label>
        <span>{t('events.count', { n: trace.entries.length })}</span>
      </div>
      {trace.runs.map((r, i) => (
        <pre key={i} className="run-output" tabIndex={0}>
          {r.prompt}
          {'\n'}
          {r.stdout}
          {r.stderr}
        </pre>
      ))}
      <ol className="events" ref={ref} data-testid="events">
        {trace.entries.map((e, i) =>
          allSteps || isKeyStep(e.step) || i === cursor ? (
            <li key={i}>
              <button
                type="button"
                className={`event ev-${e.step.kind}${i <= cursor ? ' done' : ''}`}
                aria-current={i === cursor ? 'step' : undefined}
                onClick={() => seek(i)}
                onDoubleClick={() => {
                  seek(i);
                  setTab('inspector');
                }}
              >
                <span className="ev-seq">{e.step.seq}</span>
                <span className="ev-host">{e.host}</span>
                <span className="ev-title">{stepTitle(e.step)}</span>
              </button>
            </li>
          ) : null,
        )}
      </ol>
    </div>
  );
}
