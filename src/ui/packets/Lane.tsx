/**
 * Inside the host: the lane of hooks and chains the current packet walks on this visit
 * (PREROUTING → KUBE-SERVICES → KUBE-SVC-… → KUBE-SEP-… → DNAT → routing → POSTROUTING),
 * the station of the current step lit, with the header before and after any rewrite.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { explainStep, stepWords } from '../i18n';
import { useLab } from '../store';
import { visitAround } from '../store/trace-model';
import { headerLine } from '../../explain/format';
import { laneStations } from './lane-model';

export function Lane() {
  const { t, i18n } = useTranslation();
  const entries = useLab((s) => s.trace?.entries);
  const cursor = useLab((s) => s.cursor);
  const seek = useLab((s) => s.seek);
  const entry = entries?.[cursor];
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const row = list.current;
    const el = row?.querySelector<HTMLElement>('.station.current');
    if (!row || !el) return;
    // The current station a third of the way in. Measured against the row itself: offsetLeft
    // counts from the nearest positioned ancestor, which is not the row, and was off by the
    // lane's own x once the lane sat beside the graph.
    const show = () => {
      const from = row.getBoundingClientRect().left;
      row.scrollLeft += el.getBoundingClientRect().left - from - row.clientWidth / 3;
    };
    show();
    // Again when the row or the station changes size without the cursor moving (Large text,
    // "Graph only" moving the lane): the station could slide out of view.
    const observer = new ResizeObserver(show);
    observer.observe(row);
    observer.observe(el);
    return () => observer.disconnect();
  }, [cursor, entries]);
  if (entries === undefined || entry === undefined) {
    return (
      <section className="lane lane-empty" aria-label={t('lane.label')}>
        {entries === undefined ? t('lane.hint') : t('lane.ready')}
      </section>
    );
  }
  const [start, end] = visitAround(entries, cursor);
  const stations = laneStations(entries, start, end, stepWords(i18n.language));
  const why = explainStep(entry.step, i18n.language);
  let current = -1;
  stations.forEach((st, i) => {
    if (st.index <= cursor) current = i;
  });
  return (
    <section className="lane" aria-label={t('lane.label')}>
      <div className="lane-head">
        <strong>{entry.host}</strong> · {t('lane.packet', { id: entry.step.packetId })} ·{' '}
        <code data-testid="lane-header">{headerLine(entry.header)}</code>
      </div>
      <ol className="stations" ref={list}>
        {stations.map((st, i) => (
          <li
            key={`${st.index}-${st.kind}`}
            className={`station st-${st.kind}${i === current ? ' current' : ''}${i > current ? ' future' : ''}`}
          >
            <button
              type="button"
              onClick={() => seek(st.index)}
              title={st.detail}
              aria-current={i === current ? 'step' : undefined}
            >
              {st.kind === 'skip' ? (
                <>
                  <s>{st.label}</s> <small>{t('lane.skipped')}</small>
                </>
              ) : (
                <>
                  {st.label}
                  {st.detail !== undefined && st.kind !== 'nat' && <small>{st.detail}</small>}
                </>
              )}
            </button>
          </li>
        ))}
      </ol>
      <p className="why" data-testid="why" title={why}>
        {why}
      </p>
      {entry.step.kind === 'nat' && (
        <p className="rewrite" data-testid="rewrite">
          <span className="before">{headerLine(entry.step.before)}</span> ⇒{' '}
          <span className="after">{headerLine(entry.step.after)}</span>
        </p>
      )}
      {entry.step.kind === 'rule' && (
        <p className="rule-text">
          <code>{entry.step.rule}</code>
        </p>
      )}
    </section>
  );
}
