/**
 * The event list (Packet Tracer's): every step of the trace, or only the key ones; a click
 * moves playback there and opens the step in the inspector.
 */
import { memo, useEffect, useRef } from 'react';
import type { TraceEntry } from '../store/trace-model';
import { useTranslation } from 'react-i18next';
import { terminalText, withoutTerminalStyles } from '../i18n';
import { stepTitle } from '../packets/format';
import { useLab } from '../store';
import { isKeyStep } from '../store/trace-model';

/** One row; memoised so a step of playback re-renders two rows, not the list. */
const EventRow = memo(function EventRow(props: {
  entry: TraceEntry;
  index: number;
  done: boolean;
  current: boolean;
  seek: (i: number) => void;
  open: (i: number) => void;
}) {
  const { entry: e, index: i, done, current, seek, open } = props;
  return (
    <li>
      <button
        type="button"
        className={`event ev-${e.step.kind}${done ? ' done' : ''}`}
        aria-current={current ? 'step' : undefined}
        onClick={() => seek(i)}
        onDoubleClick={() => open(i)}
      >
        <span className="ev-seq">{e.step.seq}</span>
        <span className="ev-host">{e.host}</span>
        <span className="ev-title">{stepTitle(e.step)}</span>
      </button>
    </li>
  );
});

export function EventsPanel() {
  const { t, i18n } = useTranslation();
  const trace = useLab((s) => s.trace);
  const cursor = useLab((s) => s.cursor);
  const allSteps = useLab((s) => s.allSteps);
  const toggleAllSteps = useLab((s) => s.toggleAllSteps);
  const seek = useLab((s) => s.seek);
  const setTab = useLab((s) => s.setTab);
  const ref = useRef<HTMLOListElement>(null);
  const open = useRef((i: number) => {
    seek(i);
    setTab('inspector');
  }).current;
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
          {withoutTerminalStyles(terminalText(r, i18n.language))}
        </pre>
      ))}
      <ol className="events" ref={ref} data-testid="events">
        {trace.entries.map((e, i) =>
          allSteps || isKeyStep(e.step) || i === cursor ? (
            <EventRow
              key={i}
              entry={e}
              index={i}
              done={i <= cursor}
              current={i === cursor}
              seek={seek}
              open={open}
            />
          ) : null,
        )}
      </ol>
    </div>
  );
}
