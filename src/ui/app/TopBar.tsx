/**
 * Title, presets, language, projector text size, the engine's state, and the projector window
 * (follow.ts; its own bar is FollowBar.tsx).
 */
import { useTranslation } from 'react-i18next';
import type { Language } from '../i18n';
import { useLab } from '../store';
import { leadId } from './follow';
import { LanguagePicker } from './LanguagePicker';
import { fileOfPreset, lessonOfPreset, PRESETS } from './presets';
import { useLesson } from './use-lesson';

export function TopBar() {
  const { t, i18n } = useTranslation();
  const presetId = useLab((s) => s.presetId);
  const loadPreset = useLab((s) => s.loadPreset);
  const engine = useLab((s) => s.engine);
  const largeText = useLab((s) => s.largeText);
  const toggleLargeText = useLab((s) => s.toggleLargeText);
  const panelsOpen = useLab((s) => s.editorOpen);
  const togglePanels = useLab((s) => s.toggleEditor);
  const relocalizeScenario = useLab((s) => s.relocalizeScenario);
  const restartCluster = useLab((s) => s.restartCluster);
  const lang = (i18n.language === 'zh-CN' ? 'zh-CN' : 'en') as Language;
  // A lesson's scenario is not a preset: the picker names it (and it stays selectable text
  // only; choosing a preset replaces it).
  const lessonId = lessonOfPreset(presetId);
  const lesson = useLesson(lessonId);
  const known = PRESETS.some((p) => p.id === presetId);
  return (
    <header className="top-bar">
      <h1>kube-proxy-lab</h1>
      <label>
        {t('top.preset')}
        <select
          aria-label={t('top.preset')}
          value={presetId}
          onChange={(e) => {
            const p = PRESETS.find((x) => x.id === e.target.value);
            if (p) void loadPreset(p.id, p.text);
          }}
        >
          {!known && (
            <option value={presetId} disabled>
              {lesson !== undefined
                ? t('top.lessonScenario', { n: lesson.number, title: lesson.title[lang] })
                : fileOfPreset(presetId) !== undefined
                  ? t('top.fileScenario', { name: fileOfPreset(presetId) })
                  : (lessonId ?? t('top.ownScenario'))}
            </option>
          )}
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title[lang]}
            </option>
          ))}
        </select>
      </label>
      <span className={`engine engine-${engine}`} role="status" data-testid="engine">
        {t(`status.${engine}`)}
      </span>
      <button
        type="button"
        onClick={() => void restartCluster()}
        disabled={engine !== 'ready'}
        title={t('top.restartWhy')}
      >
        {t('top.restart')}
      </button>
      <span className="spacer" />
      <button type="button" aria-pressed={largeText} onClick={toggleLargeText}>
        {t('top.large')}
      </button>
      <button type="button" aria-pressed={!panelsOpen} onClick={togglePanels}>
        {t('top.focus')}
      </button>
      <button type="button" onClick={openProjector} title={t('top.projectorWhy')}>
        {t('top.projector')}
      </button>
      {/* The scenario's own comments follow (the YAML itself never changes). */}
      <LanguagePicker onChange={() => void relocalizeScenario()} />
    </header>
  );
}

/** A second window that follows this one (follow.ts): for the projector, driven from here. */
function openProjector(): void {
  const url = `${window.location.pathname}?follow=${encodeURIComponent(leadId(sessionStorage))}`;
  window.open(url, 'kube-proxy-lab-projector');
}
