/**
 * The node's conntrack table in `conntrack -L` form, as it is at the current step: a row
 * appears when its entry is confirmed, an unconfirmed entry shows apart (the kernel does not
 * list it yet), and the entry that un-NATs a reply lights up.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLab } from '../store';
import { conntrackAt } from '../store/trace-model';
import { NodePicker, useActiveNode } from './NodePicker';

export function ConntrackStrip() {
  const { t } = useTranslation();
  const node = useActiveNode();
  const views = useLab((s) => s.views[node]);
  const trace = useLab((s) => s.trace);
  const cursor = useLab((s) => s.cursor);
  const runTerminal = useLab((s) => s.runTerminal);
  const atEnd = trace === undefined || cursor >= trace.entries.length - 1;
  const rows = useMemo(() => {
    if (trace === undefined || cursor < 0 || atEnd) {
      const text =
        trace !== undefined && cursor < 0 ? trace.before[node]?.conntrack : views?.conntrack;
      return conntrackAt([], -1, node, text ?? '');
    }
    return conntrackAt(trace.entries, cursor, node, trace.before[node]?.conntrack ?? '');
  }, [trace, cursor, node, views, atEnd]);
  const listed = rows.filter((r) => r.state !== 'unconfirmed');
  return (
    <section className="conntrack" aria-label={t('ct.label')}>
      <div className="panel-tools">
        <strong>{t('ct.title')}</strong>
        <NodePicker />
        <code className="cmd">conntrack -L</code>
        <span className="ct-summary" data-testid="ct-summary">
          {t('ct.count', { n: listed.length })}
        </span>
        <button
          type="button"
          onClick={() => void runTerminal(node, 'sleep 10')}
          title={t('ct.waitHint')}
        >
          {t('ct.wait')}
        </button>
      </div>
      <pre className="ct-rows" data-testid="conntrack-rows" tabIndex={0} aria-label={t('ct.label')}>
        {rows.length === 0 && <span className="muted">{t('ct.empty')}</span>}
        {rows.map((r) => (
          <span key={r.key} className={`ct-row ct-${r.state}`} data-state={r.state}>
            {r.state === 'unconfirmed' ? `(${t('ct.unconfirmed')}) ` : ''}
            {r.text}
            {r.state === 'unnat' ? `  ← ${t('ct.unnat')}` : ''}
            {'\n'}
          </span>
        ))}
      </pre>
    </section>
  );
}
