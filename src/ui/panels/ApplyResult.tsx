/**
 * The answer to Apply: refused (errors, or an empty scenario / one with no Node, with a way back
 * to the built-in scenario), or what changed on each node, table by table. Each table is
 * compared with its own listing (src/worker/rule-diff.ts), so a mode switch shows what the new
 * mode wrote, not the old mode's rules as deleted.
 */
import { useTranslation } from 'react-i18next';
import type { RuleDiff, TableDiff } from '../../protocol/lab';
import { useLab } from '../store';

/** Tool and table names are not translated (they are what the terminal shows). */
const TABLE_NAME: Record<TableDiff['table'], string> = {
  iptables: 'iptables',
  ipset: 'ipset',
  ipvs: 'IPVS',
  nftables: 'nftables',
};

function NodeDiff({ diff }: { diff: RuleDiff }) {
  const { t } = useTranslation();
  const counts = diff.tables
    .map((d) =>
      t('editor.tableDiff', {
        table: TABLE_NAME[d.table],
        added: d.added.length,
        removed: d.removed.length,
      }),
    )
    .join(t('editor.tableDiffSeparator'));
  return (
    <details open>
      <summary>{t('editor.ruleDiff', { node: diff.node, tables: counts })}</summary>
      {diff.tables.map((d) => (
        <pre key={d.table} className="diff" tabIndex={0} data-table={d.table}>
          <span className="muted">
            # {d.command}
            {'\n'}
          </span>
          {d.removed.map((l, i) => (
            <span key={`r${i}`} className="del">
              - {l}
              {'\n'}
            </span>
          ))}
          {d.added.map((l, i) => (
            <span key={`a${i}`} className="add">
              + {l}
              {'\n'}
            </span>
          ))}
        </pre>
      ))}
    </details>
  );
}

export function ApplyResult() {
  const { t } = useTranslation();
  const lastApply = useLab((s) => s.lastApply);
  const errors = useLab((s) => s.diagnostics.filter((d) => d.severity === 'error').length);
  const loadPreset = useLab((s) => s.loadPreset);
  if (lastApply === undefined) return null;
  return (
    <div className="apply-result" role="status" data-testid="apply-result">
      {lastApply.refused !== undefined ? (
        <p className="warn">
          {t(`editor.refused.${lastApply.refused}`)}{' '}
          <button type="button" onClick={() => void loadPreset('builtin', undefined)}>
            {t('editor.loadBuiltin')}
          </button>
        </p>
      ) : !lastApply.accepted ? (
        <p className="warn">{t('editor.rejected', { n: errors })}</p>
      ) : lastApply.ruleDiffs.length === 0 ? (
        <p>{t('editor.noRuleChange')}</p>
      ) : (
        lastApply.ruleDiffs.map((d) => <NodeDiff key={d.node} diff={d} />)
      )}
    </div>
  );
}
