/**
 * The side panels as tabs (ARIA tabs; ←/→ move between them): scenario, events, rules,
 * inspector, terminal, settings. The terminal loads xterm on first use.
 */
import { lazy, Suspense, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLab, type PanelTab } from '../store';
import { EventsPanel } from './EventsPanel';
import { InspectorPanel } from './InspectorPanel';
import { RulesPanel } from './RulesPanel';
import { ScenarioPanel } from './ScenarioPanel';
import { SettingsPanel } from './SettingsPanel';

const TerminalPanel = lazy(() => import('./TerminalPanel'));

const TABS: PanelTab[] = ['scenario', 'events', 'rules', 'inspector', 'terminal', 'settings'];

export function Panels() {
  const { t } = useTranslation();
  const tab = useLab((s) => s.tab);
  const setTab = useLab((s) => s.setTab);
  const onKey = (e: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : undefined;
    if (next === undefined) return;
    e.preventDefault();
    const to = TABS[(next + TABS.length) % TABS.length]!;
    setTab(to);
    document.getElementById(`tab-${to}`)?.focus();
  };
  return (
    <section className="panels">
      <div role="tablist" aria-label={t('panels.label')} className="tabs" onKeyDown={onKey}>
        {TABS.map((id) => (
          <button
            key={id}
            id={`tab-${id}`}
            type="button"
            role="tab"
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => setTab(id)}
          >
            {t(`panels.${id}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tab-body">
        {tab === 'scenario' && <ScenarioPanel />}
        {tab === 'events' && <EventsPanel />}
        {tab === 'rules' && <RulesPanel />}
        {tab === 'inspector' && <InspectorPanel />}
        {tab === 'terminal' && (
          <Suspense fallback={<p className="muted">{t('editor.loading')}</p>}>
            <TerminalPanel />
          </Suspense>
        )}
        {tab === 'settings' && <SettingsPanel />}
      </div>
    </section>
  );
}
