/**
 * The scenario: the editor (lazy Monaco), Apply, open and save as a file, the problems the
 * engine found (positioned), and the answer to the last apply (ApplyResult).
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useAfterFirstPaint } from '../app/after-first-paint';
import { useLab } from '../store';
import { ApplyResult } from './ApplyResult';
import { ScenarioFiles } from './ScenarioFiles';

const ScenarioEditor = lazy(() => import('../editor/ScenarioEditor'));

export function ScenarioPanel() {
  const { t } = useTranslation();
  const applyText = useLab((s) => s.applyText);
  const diagnostics = useLab((s) => s.diagnostics);
  const dirty = useLab((s) => s.text !== s.goodText);
  const busy = useLab((s) => s.engine !== 'ready');
  // Monaco loads once the shell is on screen (after-first-paint.ts).
  const editorNow = useAfterFirstPaint();
  return (
    <div className="scenario-panel">
      <div className="panel-tools">
        <button
          type="button"
          className="primary"
          onClick={() => void applyText()}
          disabled={busy}
          title="Ctrl+Enter"
        >
          {t('editor.apply')}
        </button>
        <span className={dirty ? 'warn-text' : 'muted'} data-testid="apply-state">
          {dirty ? t('editor.unapplied') : t('editor.running')}
        </span>
        <span className="spacer" />
        <ScenarioFiles />
      </div>
      <div className="editor-wrap">
        {editorNow ? (
          <Suspense fallback={<p className="muted">{t('editor.loading')}</p>}>
            <ScenarioEditor />
          </Suspense>
        ) : (
          <p className="muted">{t('editor.loading')}</p>
        )}
      </div>
      {diagnostics.length > 0 && (
        <ul className="diagnostics" aria-label={t('editor.problems')} data-testid="diagnostics">
          {diagnostics.map((d, i) => (
            <li key={i} className={d.severity}>
              <code>
                {d.line}:{d.col}
              </code>{' '}
              {d.message}
            </li>
          ))}
        </ul>
      )}
      <ApplyResult />
    </div>
  );
}
