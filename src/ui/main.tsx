import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createLabClient } from '../worker/client';
import { App } from './app/App';
import './app/app.css';
import { currentLanguage, initI18n } from './i18n';
import { LessonsSide } from './lessons/LessonsSide';
import { createLessonHost } from './lessons/store-host';
import { createAppStore, StoreContext, type AppStore } from './store';

initI18n();

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
void store.getState().start();

declare global {
  interface Window {
    /** For the end-to-end tests and the curious: the store and a way to kill the worker. */
    __lab?: { store: AppStore; crashWorker(): void };
  }
}
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
