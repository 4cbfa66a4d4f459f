/**
 * The projector window (follow.ts): no engine, no storage of its own; it draws the state the
 * leading lab window posts, with the graph, the lane and conntrack only, in large text.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setLanguage } from '../i18n';
import { createAppStore, StoreContext } from '../store';
import type { LabCaller } from '../store/types';
import { App } from './App';
import { channelName, follow } from './follow';
import { FollowBar } from './FollowBar';

/** The follower asks no engine: its controls are inert, so this is never reached by a click. */
const NO_ENGINE: LabCaller = {
  call: () => Promise.reject(new Error('this window follows another lab window')),
};

export function startFollower(id: string): void {
  const store = createAppStore({ lab: NO_ENGINE });
  // The presenter's window moves the cursor; keys pressed here (the playback keys listen on
  // the whole window, which `inert` does not silence) change nothing.
  const still = () => undefined;
  store.setState({
    editorOpen: false,
    largeText: true,
    play: still,
    pause: still,
    stepForward: still,
    stepBack: still,
    seek: still,
  });
  follow(store, new BroadcastChannel(channelName(id)), {
    // The presenter's setLanguage has stored the same choice already.
    set: (language) => setLanguage(language === 'zh-CN' ? 'zh-CN' : 'en'),
  });
  const root = document.getElementById('root');
  if (root) {
    createRoot(root).render(
      <StrictMode>
        <StoreContext.Provider value={store}>
          <App followBar={<FollowBar />} />
        </StoreContext.Provider>
      </StrictMode>,
    );
  }
}
