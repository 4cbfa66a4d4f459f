/**
 * Playback: play/pause, step back and forward, speed, and where we are. Keyboard (outside text
 * fields and the editor): Space plays/pauses, ←/→ step, Shift+←/→ jump to the previous/next
 * stop (a hook, a rewrite, a wire, a verdict: trace-model.ts isStop), Home/End to the start
 * and the last step.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabShallow } from '../store';
import { nextStop } from '../store/trace-model';

/** Small inline icons: no icon font to load, and no glyph the system fonts might lack. */
function Icon({ d }: { d: string }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}
const ICON = {
  back: 'M3 3h2v10H3zM14 3v10L6 8z',
  forward: 'M11 3h2v10h-2zM2 3v10l8-5z',
  play: 'M4 2v12l10-6z',
  pause: 'M3 2h4v12H3zM9 2h4v12H9z',
};

const SPEEDS = [0.5, 1, 2, 4, 8, 16];

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (el === null) return false;
  return el.closest('input, textarea, select, [contenteditable], .monaco-editor, .xterm') !== null;
}

export function PlaybackBar() {
  const { t } = useTranslation();
  const s = useLabShallow((st) => ({
    cursor: st.cursor,
    playing: st.playing,
    speed: st.speed,
    trace: st.trace,
    play: st.play,
    pause: st.pause,
    stepForward: st.stepForward,
    stepBack: st.stepBack,
    seek: st.seek,
    setSpeed: st.setSpeed,
  }));
  const total = s.trace?.entries.length ?? 0;
  const command = s.trace?.runs.map((r) => r.prompt);
  const latest = useRef(s);
  latest.current = s;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = latest.current;
      if (typing(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      const entries = s.trace?.entries ?? [];
      if (e.key === 'ArrowRight' && e.shiftKey) s.seek(nextStop(entries, s.cursor, 1));
      else if (e.key === 'ArrowLeft' && e.shiftKey) s.seek(nextStop(entries, s.cursor, -1));
      else if (e.key === 'ArrowRight') s.stepForward();
      else if (e.key === 'ArrowLeft') s.stepBack();
      else if (e.key === 'Home') s.seek(-1);
      else if (e.key === 'End') s.seek(entries.length - 1);
      else if (e.key === ' ' && (e.target as HTMLElement | null)?.tagName !== 'BUTTON') {
        e.preventDefault();
        if (s.playing) s.pause();
        else s.play();
      } else return;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="playback" role="toolbar" aria-label={t('play.label')}>
      <button
        type="button"
        onClick={s.stepBack}
        disabled={total === 0 || s.cursor < 0}
        aria-label={t('play.back')}
        title={t('play.backKeys')}
      >
        <Icon d={ICON.back} />
      </button>
      {s.playing ? (
        <button type="button" onClick={s.pause} aria-label={t('play.pause')} className="primary">
          <Icon d={ICON.pause} />
        </button>
      ) : (
        <button
          type="button"
          onClick={s.play}
          disabled={total === 0}
          aria-label={t('play.play')}
          className="primary"
        >
          <Icon d={ICON.play} />
        </button>
      )}
      <button
        type="button"
        onClick={s.stepForward}
        disabled={total === 0 || s.cursor >= total - 1}
        aria-label={t('play.forward')}
        title={t('play.forwardKeys')}
      >
        <Icon d={ICON.forward} />
      </button>
      <label className="speed">
        {t('play.speed')}
        <select
          aria-label={t('play.speed')}
          value={s.speed}
          onChange={(e) => s.setSpeed(Number(e.target.value))}
        >
          {SPEEDS.map((v) => (
            <option key={v} value={v}>
              {t('play.perSecond', { count: v })}
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        min={-1}
        max={Math.max(total - 1, 0)}
        value={s.cursor}
        onChange={(e) => s.seek(Number(e.target.value))}
        aria-label={t('play.position')}
        disabled={total === 0}
      />
      <span className="position" data-testid="position">
        {total === 0 ? t('play.noTrace') : t('play.step', { n: s.cursor + 1, total })}
      </span>
      {command !== undefined && command.length > 0 && (
        <code className="prompt" title={command.join('\n')}>
          {command[0]}
          {command.length > 1 ? ` ×${command.length}` : ''}
        </code>
      )}
    </div>
  );
}
