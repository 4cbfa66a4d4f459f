/**
 * The event list (Packet Tracer's): every step of the trace, or only the key ones; a click
 * moves playback there and opens the step in the inspector.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { isKeyStep, type TraceEntry } from '../../explain/trace-text';
import { useTranslation } from 'react-i18next';
import { stepWords, terminalText, withoutTerminalStyles } from '../i18n';
import { stepTitle } from '../../explain/format';
import { traceText } from '../packets/trace-text';
import { useLab } from '../store';
import { stepNumber } from '../store/trace-model';

/** One row; memoised so a step of playback re-renders two rows, not the list. */
const EventRow = memo(function EventRow(props: {
  entry: TraceEntry;
  index: number;
  done: boolean;
  current: boolean;
  lng: string;
  seek: (i: number) => void;
  open: (i: number) => void;
}) {
  const { entry: e, index: i, done, current, lng, seek, open } = props;
  return (
    <li>
      <button
        type="button"
        className={`event ev-${e.step.kind}${done ? ' done' : ''}`}
        aria-current={current ? 'step' : undefined}
        onClick={() => seek(i)}
        onDoubleClick={() => open(i)}
      >
        <span className="ev-seq">{stepNumber(i)}</span>
        <span className="ev-host">{e.host}</span>
        <span className="ev-title">{stepTitle(e.step, stepWords(lng))}</span>
      </button>
    </li>
  );
});

/** Downloads `text` as a file the browser writes itself (nothing is uploaded). */
function saveText(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // Some browsers read the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function EventsPanel() {
  const { t, i18n } = useTranslation();
  const trace = useLab((s) => s.trace);
  const cursor = useLab((s) => s.cursor);
  const allSteps = useLab((s) => s.allSteps);
  const toggleAllSteps = useLab((s) => s.toggleAllSteps);
  const seek = useLab((s) => s.seek);
  const setTab = useLab((s) => s.setTab);
  const ref = useRef<HTMLOListElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [trace, allSteps]);
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
        <button
          type="button"
          title={t('events.exportTitle')}
          onClick={() => {
            // The clipboard may be refused (a permission, an insecure context): Save works then.
            navigator.clipboard
              ?.writeText(traceText(trace, allSteps, i18n.language))
              .then(() => setCopied(true))
              .catch(() => setCopied(false));
          }}
        >
          {copied ? t('events.copied') : t('events.copy')}
        </button>
        <button
          type="button"
          title={t('events.exportTitle')}
          onClick={() => saveText(traceText(trace, allSteps, i18n.language), 'trace.txt')}
        >
          {t('events.save')}
        </button>
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
              lng={i18n.language}
              seek={seek}
              open={open}
            />
          ) : null,
        )}
      </ol>
    </div>
  );
}
