/**
 * The side panels as tabs (ARIA tabs; ←/→ move between them): scenario, events, rules,
 * inspector, terminal, settings. All but the scenario load on first use (the terminal with xterm).
 */
import { lazy, Suspense, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLab, type PanelTab } from '../store';
import { ScenarioPanel } from './ScenarioPanel';

// The Scenario tab opens first; the others load when first opened (and keep the app shell,
// which every visit downloads before anything else, small).
const TerminalPanel = lazy(() => import('./TerminalPanel'));
const EventsPanel = lazy(() => import('./EventsPanel').then((m) => ({ default: m.EventsPanel })));
const RulesPanel = lazy(() => import('./RulesPanel').then((m) => ({ default: m.RulesPanel })));
const InspectorPanel = lazy(() =>
  import('./InspectorPanel').then((m) => ({ default: m.InspectorPanel })),
);
const SettingsPanel = lazy(() =>
  import('./SettingsPanel').then((m) => ({ default: m.SettingsPanel })),
);

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
        {tab !== 'scenario' && (
          <Suspense fallback={<p className="muted">{t('editor.loading')}</p>}>
            {tab === 'events' && <EventsPanel />}
            {tab === 'rules' && <RulesPanel />}
            {tab === 'inspector' && <InspectorPanel />}
            {tab === 'terminal' && <TerminalPanel />}
            {tab === 'settings' && <SettingsPanel />}
          </Suspense>
        )}
      </div>
    </section>
  );
}
