/**
 * A hint above the graph for a projector: "Large text" enlarges the panels' text, and on a small
 * screen (1280×720) the wider panels leave the graph a box that fitView fills at under half the
 * topology's size (0.3 below this hint's row: the 11px labels drawn at 3.3px) — smaller than without Large text. The
 * room for a readable graph comes from closing the side panels and folding the lessons (the
 * graph is then drawn at 1.04 there: app.css, @container center), which the hint says and offers.
 * Shown only with Large text on, while the graph is drawn below SMALL_ZOOM; it can be dismissed
 * until Large text is turned on again. It takes its own row above the picture (Graph.tsx), so
 * fitView draws the cluster below it and it covers no node.
 */
import { useStore } from '@xyflow/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLab } from '../store';

/** Below this scale the graph's 11px labels are drawn under 7.7px: too small to read projected. */
export const SMALL_ZOOM = 0.7;

export function SmallGraphHint() {
  const { t } = useTranslation();
  const zoom = useStore((s) => s.transform[2]);
  const largeText = useLab((s) => s.largeText);
  const panelsOpen = useLab((s) => s.editorOpen);
  const togglePanels = useLab((s) => s.toggleEditor);
  // Dismissed until Large text is turned off: turning it on again shows the hint again.
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (!largeText) setDismissed(false);
  }, [largeText]);
  if (!largeText || zoom >= SMALL_ZOOM || dismissed) return null;
  return (
    <div className="small-graph-hint" data-testid="small-graph-hint">
      <span role="status">
        {t(panelsOpen ? 'graph.small' : 'graph.smallFocused', { pct: Math.round(zoom * 100) })}
      </span>
      {panelsOpen && (
        <button type="button" onClick={togglePanels}>
          {t('top.focus')}
        </button>
      )}
      <button
        type="button"
        className="small-graph-hint-close"
        aria-label={t('notice.dismiss')}
        onClick={() => setDismissed(true)}
      >
        ×
      </button>
    </div>
  );
}
