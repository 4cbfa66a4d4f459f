/**
 * The lessons panel as the app's side slot: it follows the lab's language and can fold to a
 * narrow strip (remembered), so the graph gets the room when no lesson is being done.
 */
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../lessons/types';
import { useAfterFirstPaint } from '../app/after-first-paint';
import type { LessonHost } from './host';
import { t } from './strings';
import './lessons.css';

// The lessons (their texts, steps and checks) load after the app shell has been painted
// (after-first-paint.ts): the lab is usable before them, and the first paint does not wait
// for a dozen lessons' words.
const LessonsPanel = lazy(() =>
  import('./LessonsPanel').then((m) => ({ default: m.LessonsPanel })),
);

const FOLDED_KEY = 'kube-proxy-lab:lessons:folded';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function LessonsSide({ host }: { host: LessonHost }) {
  const { i18n } = useTranslation();
  const lang: Lang = i18n.language === 'zh-CN' ? 'zh-CN' : 'en';
  const [folded, setFolded] = useState(() => storage()?.getItem(FOLDED_KEY) === '1');
  const lessonsNow = useAfterFirstPaint();
  const toggle = () => {
    setFolded(!folded);
    try {
      storage()?.setItem(FOLDED_KEY, folded ? '0' : '1');
    } catch {
      // Not remembered; the fold still applies now.
    }
  };
  return (
    <div className={`lessons-side${folded ? ' folded' : ''}`}>
      <button
        type="button"
        className="lessons-fold"
        data-testid="lessons-toggle"
        aria-expanded={!folded}
        onClick={toggle}
      >
        {/* Vertical when folded: on the span, as WebKit lays a button's own text out
            horizontally whatever its writing-mode (WebKitGTK 2.50: “◂ Less” cut off). */}
        <span className="lessons-fold-label">
          {folded ? `◂ ${t(lang, 'lessons')}` : `${t(lang, 'lessons')} ▸`}
        </span>
      </button>
      {!folded &&
        (lessonsNow ? (
          <Suspense fallback={<p className="muted">{t(lang, 'loading')}</p>}>
            <LessonsPanel host={host} lang={lang} storage={storage()} />
          </Suspense>
        ) : (
          <p className="muted">{t(lang, 'loading')}</p>
        ))}
    </div>
  );
}
