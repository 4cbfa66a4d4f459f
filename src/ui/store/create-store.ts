/**
 * The lab's one store (zustand vanilla: no React here), built from slices. Only slice actions
 * talk to the engine; components read state through selectors and call actions.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LoadAnswer, Views } from '../../protocol/lab';
import { loadSaved, save, type KeyValueStorage } from './persist';
import { localizer, scenarioSlice } from './scenario-slice';
import { traceEntries } from '../../explain/trace-text';
import type { AppState, LabCaller } from './types';

export type AppStore = StoreApi<AppState>;

export interface StoreDeps {
  readonly lab: LabCaller;
  readonly storage?: KeyValueStorage;
  /** Timers for playback (injected so tests can drive them). */
  readonly setInterval?: (fn: () => void, ms: number) => unknown;
  readonly clearInterval?: (id: unknown) => void;
  /**
   * The lab's own scenario comments in the learner's language (i18n/scenario-comments.ts);
   * applied to every scenario the lab hands out. Default: the text as it is.
   */
  readonly localizeScenario?: (text: string) => string | Promise<string>;
}

const byNode = (views: readonly Views[]) => Object.fromEntries(views.map((v) => [v.node, v]));

export function createAppStore(deps: StoreDeps): AppStore {
  const saved = loadSaved(deps.storage);
  const setTimer = deps.setInterval ?? ((fn, ms) => globalThis.setInterval(fn, ms));
  const clearTimer =
    deps.clearInterval ?? ((id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>));
  let timer: unknown;
  const localize = localizer(deps);

  return createStore<AppState>()((set, get) => {
    const persist = () => {
      const s = get();
      save(deps.storage, {
        version: 1,
        text: s.text,
        goodText: s.goodText,
        presetId: s.presetId,
        speed: s.speed,
        largeText: s.largeText,
        editorOpen: s.editorOpen,
      });
    };
    const fail = (e: unknown) =>
      set({
        engine: 'ready',
        notice: { kind: 'error', detail: e instanceof Error ? e.message : String(e) },
      });
    const took = (answer: LoadAnswer, text: string) => {
      set({ diagnostics: answer.diagnostics, topology: answer.topology });
      if (answer.accepted) set({ goodText: text });
      const nodes = answer.topology.nodes.map((n) => n.name);
      if (!nodes.includes(get().viewNode) && nodes[0] !== undefined) set({ viewNode: nodes[0] });
      persist();
    };
    /**
     * Loads the last good text; if the engine refuses it (a text an older lab accepted, such
     * as an empty scenario), the built-in scenario instead, so Start over always gives a
     * cluster. The editor's text is left alone either way.
     */
    const loadGood = async () => {
      const good = get().goodText;
      const answer = await deps.lab.call('load', good);
      if (answer.accepted) return took(answer, good);
      const builtin = await localize(await deps.lab.call('defaultScenario'));
      took(await deps.lab.call('load', builtin), builtin);
    };
    const stopTimer = () => {
      if (timer !== undefined) clearTimer(timer);
      timer = undefined;
    };

    return {
      // scenario
      ...scenarioSlice({ set, get, deps, saved, persist, took, fail, stopTimer }),

      // sim
      engine: 'starting',
      notice: undefined,
      topology: undefined,
      views: {},
      async start() {
        let good = get().goodText;
        if (good === '') {
          good = await localize(await deps.lab.call('defaultScenario'));
          set({ text: get().text === '' ? good : get().text, goodText: good });
        }
        // A text saved while the lab spoke the other language.
        await get().relocalizeScenario();
        await loadGood();
        good = get().goodText;
        if (get().text !== good) set({ diagnostics: await deps.lab.call('validate', get().text) });
        set({ engine: 'ready' });
        await get().refreshViews();
      },
      async restartCluster() {
        stopTimer();
        set({ engine: 'busy', trace: undefined, cursor: -1, playing: false, lastApply: undefined });
        try {
          await loadGood();
          const good = get().goodText;
          // The editor's own (unapplied) text keeps its problems on screen.
          if (get().text !== good)
            set({ diagnostics: await deps.lab.call('validate', get().text) });
          set({ engine: 'ready' });
          await get().refreshViews();
        } catch (e) {
          fail(e);
        }
      },
      async refreshViews() {
        try {
          set({ views: byNode(await deps.lab.call('allViews')) });
        } catch (e) {
          fail(e);
        }
      },
      async runTerminal(host, line, columns) {
        try {
          const answer = await deps.lab.call('run', host, line, columns);
          if (answer.steps.length > 0) {
            // Packets the command caused are animated like the packet picker's.
            const before = get().views;
            const after = byNode(await deps.lab.call('allViews'));
            stopTimer();
            set({
              trace: {
                request: undefined,
                runs: [answer],
                entries: traceEntries([answer]),
                before,
                after,
              },
              cursor: -1,
              playing: false,
            });
            set({ views: after });
          } else await get().refreshViews();
          // A command may change the cluster (kubectl apply, sysctl -w): the graph follows.
          set({ topology: await deps.lab.call('topology') });
          return answer;
        } catch (e) {
          fail(e);
          return undefined;
        }
      },
      tell(kind, detail) {
        set({ notice: { kind, detail } });
      },
      dismissNotice() {
        set({ notice: undefined });
      },
      async workerRestarted(detail) {
        // The new worker knows nothing: rebuild the last good cluster; the editor's text stays.
        set({ notice: { kind: 'restarted', detail }, engine: 'busy' });
        await loadGood();
        set({ engine: 'ready' });
        await get().refreshViews();
      },

      // trace
      trace: undefined,
      sendProblems: [],
      async send(req) {
        stopTimer();
        set({ engine: 'busy', playing: false });
        try {
          const answer = await deps.lab.call('send', req);
          if (answer.problems !== undefined && answer.problems.length > 0) {
            // Nothing ran: the last trace stays on screen, the form shows why.
            set({ sendProblems: answer.problems, engine: 'ready' });
            return;
          }
          set({
            sendProblems: [],
            trace: {
              request: req,
              runs: answer.runs,
              entries: traceEntries(answer.runs),
              before: byNode(answer.before),
              after: byNode(answer.after),
            },
            cursor: -1,
            views: byNode(answer.after),
            engine: 'ready',
          });
        } catch (e) {
          fail(e);
        }
      },

      // playback
      cursor: -1,
      playing: false,
      speed: saved?.speed ?? 2,
      play() {
        const entries = get().trace?.entries ?? [];
        if (entries.length === 0) return;
        if (get().cursor >= entries.length - 1) set({ cursor: -1 });
        stopTimer();
        set({ playing: true });
        const tick = () => {
          const n = get().trace?.entries.length ?? 0;
          if (get().cursor >= n - 1) {
            stopTimer();
            set({ playing: false });
          } else set({ cursor: get().cursor + 1 });
        };
        timer = setTimer(tick, 1000 / get().speed);
      },
      pause() {
        stopTimer();
        set({ playing: false });
      },
      stepForward() {
        const n = get().trace?.entries.length ?? 0;
        get().pause();
        set({ cursor: Math.min(n - 1, get().cursor + 1) });
      },
      stepBack() {
        get().pause();
        set({ cursor: Math.max(-1, get().cursor - 1) });
      },
      seek(index) {
        get().pause();
        const n = get().trace?.entries.length ?? 0;
        set({ cursor: Math.max(-1, Math.min(n - 1, index)) });
      },
      setSpeed(speed) {
        set({ speed });
        persist();
        if (get().playing) get().play();
      },

      // view
      tab: 'scenario',
      viewNode: '',
      editorOpen: saved?.editorOpen ?? true,
      largeText: saved?.largeText ?? false,
      allSteps: false,
      reveal: undefined,
      draft: {
        from: 'pod/default/client',
        to: { kind: 'service', namespace: 'kube-system', name: 'kube-dns', port: 53 },
        protocol: 'udp',
        count: 1,
      },
      setDraft: (d) => set({ draft: { ...get().draft, ...d }, sendProblems: [] }),
      terminalDraft: undefined,
      draftInTerminal: (terminalDraft) => set({ tab: 'terminal', editorOpen: true, terminalDraft }),
      clearTerminalDraft: () => set({ terminalDraft: undefined }),
      setTab: (tab) => set({ tab }),
      revealLine: (line) =>
        set({
          tab: 'scenario',
          editorOpen: true,
          reveal: { line, seq: (get().reveal?.seq ?? 0) + 1 },
        }),
      setViewNode: (viewNode) => set({ viewNode }),
      toggleEditor() {
        set({ editorOpen: !get().editorOpen });
        persist();
      },
      toggleLargeText() {
        set({ largeText: !get().largeText });
        persist();
      },
      toggleAllSteps: () => set({ allSteps: !get().allSteps }),
    };
  });
}
