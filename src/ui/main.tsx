import i18next from 'i18next';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createLabClient } from '../worker/client';
import { App } from './app/App';
import { channelName, lead, leadId } from './app/follow';
import './app/app.css';
import { currentLanguage, initI18n } from './i18n';
import { LessonsSide } from './lessons/LessonsSide';
import { createLessonHost } from './lessons/store-host';
import { createAppStore, StoreContext, type AppStore } from './store';

declare global {
  interface Window {
    /** For the end-to-end tests and the curious: the store and a way to kill the worker. */
    __lab?: { store: AppStore; crashWorker(): void };
  }
}

initI18n();

// `?follow=ID`: a projector window (app/follow.ts), drawing what the lab window ID posts.
const followId = new URLSearchParams(window.location.search).get('follow');
if (followId !== null) void import('./app/follower-main').then((m) => m.startFollower(followId));
else startLab();

function startLab(): void {
  // The client reports restarts to the store, which is built on the client: one late binding.
  const holder: { store?: AppStore } = {};
  const client = createLabClient({
    onRestart: (why, detail) => void holder.store?.getState().workerRestarted(`${why}: ${detail}`),
  });
  const store = createAppStore({
    lab: client,
    storage: window.localStorage,
    // The comment table loads with the first scenario, not with the app shell.
    localizeScenario: async (text) =>
      (await import('./i18n/scenario-comments')).localizeScenario(text, currentLanguage()),
  });
  holder.store = store;
  // A projector window this tab opens follows it (app/follow.ts).
  lead(store, new BroadcastChannel(channelName(leadId(window.sessionStorage))), {
    current: currentLanguage,
    onChange: (listener) => i18next.on('languageChanged', listener),
  });
  void store
    .getState()
    .start()
    .then(() => openSharedLink(store));
  // A link pasted into this tab's address bar changes only the hash.
  window.addEventListener('hashchange', () => void openSharedLink(store));

  window.__lab = { store, crashWorker: () => client.crash() };
  const lessonHost = createLessonHost(store, client);
  const root = document.getElementById('root');
  if (root) {
    createRoot(root).render(
      <StrictMode>
        <StoreContext.Provider value={store}>
          <App sidePanel={<LessonsSide host={lessonHost} />} />
        </StoreContext.Provider>
      </StrictMode>,
    );
  }
}

/**
 * The scenario a shared link carries (share-link.ts), opened once: the hash is then cleared so
 * that a reload keeps the learner's later edits instead of opening the link again.
 */
async function openSharedLink(store: AppStore): Promise<void> {
  if (!window.location.hash.startsWith('#scenario=')) return;
  // The decoder loads only when a link is opened: the app shell stays small.
  const { decodeScenario, LinkError, scenarioInHash } = await import('./app/share-link');
  const fragment = scenarioInHash(window.location.hash);
  if (fragment === undefined) return;
  history.replaceState(null, '', window.location.pathname + window.location.search);
  try {
    await store.getState().openLink(await decodeScenario(fragment));
  } catch (e) {
    store.getState().tell('link-error', e instanceof LinkError ? e.message : String(e));
  }
}
