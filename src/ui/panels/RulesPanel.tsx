/**
 * Rules of one node: the chain tree (built-in chains → KUBE-SERVICES → KUBE-SVC-… → KUBE-SEP-…)
 * and the text the mode's tool prints (iptables-save, or ipvsadm / nft in those modes). The
 * rule of the current step is highlighted; counters add up as the packet walks.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLab } from '../store';
import { countersAt, parseCounters, type RuleCounter } from '../store/trace-model';
import { NodePicker, useActiveNode } from './NodePicker';
import { BUILTIN_ORDER, parseSave, type SavedTable } from './save-model';

function Counter({ c }: { c: RuleCounter | undefined }) {
  return <span className="counter">[{c ? `${c.packets}:${c.bytes}` : '0:0'}]</span>;
}

interface TreeProps {
  readonly table: SavedTable;
  readonly chain: string;
  readonly counters: Map<string, RuleCounter>;
  readonly current: string | undefined;
  readonly visited: ReadonlySet<string>;
  readonly depth: number;
}

function ChainTree({ table, chain, counters, current, visited, depth }: TreeProps) {
  const c = table.chains.get(chain);
  if (c === undefined || depth > 6) return null;
  return (
    <ul className="chain-rules">
      {c.rules.map((r) => {
        const key = `${table.name}/${r.chain}/${r.num}`;
        const jump = r.target !== undefined && table.chains.has(r.target) ? r.target : undefined;
        const line = (
          <span className={`rule${key === current ? ' current-rule' : ''}`} data-rule={key}>
            <Counter c={counters.get(key)} /> <code>{r.text}</code>
          </span>
        );
        return (
          <li key={key}>
            {jump === undefined ? (
              line
            ) : (
              <details open={visited.has(`${table.name}/${jump}`)}>
                <summary>{line}</summary>
                <ChainTree
                  table={table}
                  chain={jump}
                  counters={counters}
                  current={current}
                  visited={visited}
                  depth={depth + 1}
                />
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function RulesPanel() {
  const { t } = useTranslation();
  const node = useActiveNode();
  const views = useLab((s) => s.views[node]);
  const trace = useLab((s) => s.trace);
  const cursor = useLab((s) => s.cursor);
  const [mode, setMode] = useState<'tree' | 'text'>('tree');
  const [tableName, setTableName] = useState('nat');
  // During playback the panel starts from the rules as they were before the first packet.
  const base = trace?.before[node] ?? views;
  const text = cursor >= 0 && trace !== undefined ? (base?.rules ?? '') : (views?.rules ?? '');
  const tables = useMemo(() => parseSave(text), [text]);
  const baseCounters = useMemo(() => parseCounters(text), [text]);
  const counters = useMemo(
    () =>
      trace && cursor >= 0 ? countersAt(trace.entries, cursor, node, baseCounters) : baseCounters,
    [trace, cursor, node, baseCounters],
  );
  const step = trace?.entries[cursor]?.step;
  const current =
    step?.kind === 'rule' && step.at.host === node
      ? `${step.table}/${step.chain}/${step.ruleNum}`
      : undefined;
  const visited = useMemo(() => {
    const out = new Set<string>();
    for (const e of trace?.entries.slice(0, cursor + 1) ?? []) {
      if (e.step.kind === 'rule' && e.step.at.host === node)
        out.add(`${e.step.table}/${e.step.chain}`);
    }
    return out;
  }, [trace, cursor, node]);
  const currentLine = useMemo(() => {
    for (const tb of tables)
      for (const c of tb.chains.values())
        for (const r of c.rules) if (`${r.table}/${r.chain}/${r.num}` === current) return r.line;
    return -1;
  }, [tables, current]);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector('.current-rule')?.scrollIntoView({ block: 'nearest' });
  }, [current, mode]);

  const table = tables.find((x) => x.name === tableName) ?? tables[0];
  const isSave = tables.length > 0;
  return (
    <div className="rules-panel" ref={ref}>
      <div className="panel-tools">
        <NodePicker />
        <code className="cmd">{views?.rulesCommand}</code>
        {isSave && (
          <>
            <select
              aria-label={t('rules.table')}
              value={table?.name}
              onChange={(e) => setTableName(e.target.value)}
            >
              {tables.map((x) => (
                <option key={x.name}>{x.name}</option>
              ))}
            </select>
            <div role="radiogroup" aria-label={t('rules.view')} className="seg">
              <button
                type="button"
                role="radio"
                aria-checked={mode === 'tree'}
                onClick={() => setMode('tree')}
              >
                {t('rules.tree')}
              </button>
              <button
                type="button"
                role="radio"
                aria-checked={mode === 'text'}
                onClick={() => setMode('text')}
              >
                {t('rules.text')}
              </button>
            </div>
          </>
        )}
      </div>
      {isSave && mode === 'tree' && table !== undefined ? (
        <div className="chain-tree" data-testid="chain-tree">
          {BUILTIN_ORDER.filter((c) => table.chains.has(c)).map((c) => (
            <details key={c} open={visited.has(`${table.name}/${c}`) || c === 'PREROUTING'}>
              <summary>
                <strong>{c}</strong> <small>policy {table.chains.get(c)?.policy}</small>
              </summary>
              <ChainTree
                table={table}
                chain={c}
                counters={counters}
                current={current}
                visited={visited}
                depth={0}
              />
            </details>
          ))}
        </div>
      ) : (
        <pre
          className={`save-text${isSave ? '' : ' tool-text'}`}
          data-testid="rules-text"
          tabIndex={0}
        >
          {text.split('\n').map((line, i) => {
            return (
              <span key={i} className={i === currentLine ? 'current-rule' : undefined}>
                {line}
                {'\n'}
              </span>
            );
          })}
        </pre>
      )}
    </div>
  );
}
