/**
 * The lab's layout: the top bar; the graph with the packet picker, the lane inside the host
 * and the conntrack table in the middle (below the graph, or beside it when the middle is much
 * wider than tall: app.css); the panels on the right; and a free slot for a side panel
 * (lessons) that other features fill. A projector window (`followBar`, follow.ts) shows the
 * graph, the lane and conntrack only, driven by the window that opened it.
 */
import type { ReactNode } from 'react';
import { Graph } from '../graph/Graph';
import { Lane } from '../packets/Lane';
import { PlaybackBar } from '../packets/PlaybackBar';
import { SendBar } from '../packets/SendBar';
import { ConntrackStrip } from '../panels/ConntrackStrip';
import { Panels } from '../panels/Panels';
import { useLab } from '../store';
import { Notice } from './Notice';
import { TopBar } from './TopBar';

export function App({
  sidePanel,
  followBar,
}: {
  sidePanel?: ReactNode;
  /** A projector window's bar: the window follows another (follow.ts) and only shows. */
  followBar?: ReactNode;
}) {
  const following = followBar !== undefined;
  const largeText = useLab((s) => s.largeText);
  const panelsOpen = useLab((s) => s.editorOpen) && !following;
  return (
    <div className={`lab${largeText ? ' large' : ''}${panelsOpen ? '' : ' focus'}`}>
      {following ? followBar : <TopBar />}
      <Notice />
      <main className="workspace">
        <section className="center">
          {/* A projector window only shows: the presenter's window drives it. */}
          <div className="center-body" inert={following}>
            {!following && <SendBar />}
            <Graph />
            <PlaybackBar />
            <Lane />
            <ConntrackStrip />
          </div>
        </section>
        {panelsOpen && <Panels />}
        {sidePanel !== undefined && (
          <aside className="side-slot" data-testid="side-slot">
            {sidePanel}
          </aside>
        )}
      </main>
    </div>
  );
}
