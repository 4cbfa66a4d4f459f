/**
 * The packet inspector: the current step in full, and the packet's headers at every step
 * (each NAT rewrite shows what changed).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LabStep } from '../../protocol/lab';
import type { PacketHeader } from '../../protocol/trace';
import { explainStep, stepWords } from '../i18n';
import { headerLine, stepTitle } from '../../explain/format';
import { useLab } from '../store';
import { stepNumber } from '../store/trace-model';
import { ruleService, serviceLine } from './rule-origin';

const FIELDS: (keyof PacketHeader)[] = [
  'src',
  'sport',
  'dst',
  'dport',
  'proto',
  'tcpFlags',
  'length',
  'ttl',
  'mark',
];

function HeaderTable({
  before,
  after,
}: {
  before?: PacketHeader | undefined;
  after: PacketHeader;
}) {
  const { t } = useTranslation();
  return (
    <table className="header-table">
      <thead>
        <tr>
          <th scope="col">{t('inspector.field')}</th>
          {before && <th scope="col">{t('inspector.before')}</th>}
          <th scope="col">{before ? t('inspector.after') : t('inspector.value')}</th>
        </tr>
      </thead>
      <tbody>
        {FIELDS.filter((f) => after[f] !== undefined || before?.[f] !== undefined).map((f) => {
          const a = String(after[f] ?? '');
          const b = before ? String(before[f] ?? '') : undefined;
          return (
            <tr key={f} className={b !== undefined && a !== b ? 'changed' : undefined}>
              <th scope="row">{f}</th>
              {b !== undefined && <td>{f === 'mark' ? `0x${Number(b).toString(16)}` : b}</td>}
              <td>{f === 'mark' ? `0x${Number(a).toString(16)}` : a}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A skipped rule's failed condition (the trace names it: mismatch.ts), to mark in its text. */
function failedCondition(s: LabStep): string | undefined {
  if (s.kind !== 'rule' || s.matched) return undefined;
  const c = s.why.params?.condition;
  return typeof c === 'string' && c !== '' ? c : undefined;
}

/** The rule as `iptables -S` prints it, the condition that failed marked. */
function RuleText({ rule, failed }: { rule: string; failed: string | undefined }) {
  const at = failed === undefined ? -1 : rule.indexOf(` ${failed}`) + 1;
  if (at <= 0 || failed === undefined) return <pre className="wrap">{rule}</pre>;
  return (
    <pre className="wrap">
      {rule.slice(0, at)}
      <mark data-testid="failed-condition">{failed}</mark>
      {rule.slice(at + failed.length)}
    </pre>
  );
}

/** The Service a kube-proxy rule was written for, and a way to its YAML (rule-origin.ts). */
function RuleOrigin({ rule }: { rule: string }) {
  const { t } = useTranslation();
  const text = useLab((s) => s.text);
  const revealLine = useLab((s) => s.revealLine);
  const [missing, setMissing] = useState(false);
  const svc = ruleService(rule);
  useEffect(() => setMissing(false), [rule, text]);
  if (svc === undefined) return null;
  const service = `${svc.namespace}/${svc.name}`;
  const show = async () => {
    const line = await serviceLine(text, svc);
    if (line === undefined) setMissing(true);
    else revealLine(line);
  };
  return (
    <p className="rule-origin">
      {svc.port === undefined
        ? t('inspector.origin', { service })
        : t('inspector.originPort', { service, port: svc.port })}{' '}
      <button type="button" onClick={() => void show()}>
        {t('inspector.show')}
      </button>
      {missing && <span className="muted"> {t('inspector.notFound', { service })}</span>}
    </p>
  );
}

export function InspectorPanel() {
  const { t, i18n } = useTranslation();
  const trace = useLab((s) => s.trace);
  const cursor = useLab((s) => s.cursor);
  const seek = useLab((s) => s.seek);
  const entry = trace?.entries[cursor];
  if (trace === undefined || entry === undefined)
    return <p className="muted">{t('inspector.none')}</p>;
  const s = entry.step;
  const words = stepWords(i18n.language);
  // A kind newer than the catalogue is shown as the trace names it.
  const kindName = (kind: string) => t(`step.kind.${kind}`, { defaultValue: kind });
  const history = trace.entries
    .map((e, i) => ({ e, i }))
    .filter(
      ({ e }) =>
        e.step.packetId === s.packetId &&
        (e.step.kind === 'send' || e.step.kind === 'wire' || e.step.kind === 'nat'),
    );
  return (
    <div className="inspector" data-testid="inspector">
      <h3>
        {t('step.number', { n: stepNumber(cursor) })} · {kindName(s.kind)} · {entry.host}
        {s.at.iface ? ` (${s.at.iface})` : ''}
      </h3>
      <p className="why">{explainStep(s, i18n.language)}</p>
      <p>
        <code>{stepTitle(s, words)}</code>
      </p>
      {s.kind === 'rule' && <RuleText rule={s.rule} failed={failedCondition(s)} />}
      {s.kind === 'rule' && <RuleOrigin rule={s.rule} />}
      {s.kind === 'conntrack' && <pre className="wrap">{s.entry}</pre>}
      {s.kind === 'nat' ? (
        <HeaderTable before={s.before} after={s.after} />
      ) : (
        entry.header && <HeaderTable after={entry.header} />
      )}
      <h4>{t('inspector.history', { id: s.packetId })}</h4>
      {/* Not an <ol>: its own 1, 2, 3 beside each step's number read as a second count. */}
      <ul className="header-history">
        {history.map(({ e, i }) => (
          <li key={i}>
            <button
              type="button"
              onClick={() => seek(i)}
              aria-current={i === cursor ? 'step' : undefined}
            >
              #{stepNumber(i)} {e.host}{' '}
              {e.step.kind === 'nat' ? e.step.manip.toUpperCase() : kindName(e.step.kind)}:{' '}
              <code>{headerLine(e.header)}</code>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
