/**
 * The scenario slice: the editor's text (saved on every change), the last good text the
 * cluster runs, presets, files and shared links, and the lab's own comments in the learner's
 * language. Built by create-store.ts, which hands it the helpers the slices share.
 */
import type { LoadAnswer } from '../../protocol/lab';
import { BEFORE_LINK_KEY, type KeyValueStorage, type Saved } from './persist';
import type { AppState, ScenarioSlice } from './types';
import type { StoreDeps } from './create-store';

/** What create-store.ts hands a slice built in a file of its own. */
export interface SliceKit {
  readonly set: (partial: Partial<AppState>) => void;
  readonly get: () => AppState;
  readonly deps: StoreDeps;
  readonly saved: Saved | undefined;
  /** Saves what survives a reload. */
  readonly persist: () => void;
  /** Takes an engine's answer to a load or apply: diagnostics, topology, the good text. */
  readonly took: (answer: LoadAnswer, text: string) => void;
  /** Shows an engine error and makes the lab ready again. */
  readonly fail: (e: unknown) => void;
  readonly stopTimer: () => void;
}

function readBeforeLink(storage: KeyValueStorage | undefined): string | undefined {
  try {
    return storage?.getItem(BEFORE_LINK_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function writeBeforeLink(storage: KeyValueStorage | undefined, text: string | undefined): void {
  try {
    // A storage without removeItem (the tests' map) keeps an empty string: read as none.
    if (text === undefined) storage?.setItem(BEFORE_LINK_KEY, '');
    else storage?.setItem(BEFORE_LINK_KEY, text);
  } catch {
    // Storage full or disabled: the text stays in memory for this visit.
  }
}

/** The lab's scenario comments in the learner's language (deps.localizeScenario), if set. */
export function localizer(deps: StoreDeps): (text: string) => Promise<string> {
  return async (text) => (await deps.localizeScenario?.(text)) ?? text;
}

export function scenarioSlice(kit: SliceKit): ScenarioSlice {
  const { set, get, deps, saved, persist, took, fail, stopTimer } = kit;
  let validateSeq = 0;
  const localize = localizer(deps);
  return {
    text: saved?.text ?? '',
    goodText: saved?.goodText ?? '',
    presetId: saved?.presetId ?? 'builtin',
    diagnostics: [],
    lastApply: undefined,
    setText(text) {
      set({ text });
      persist();
      const mine = ++validateSeq;
      void deps.lab.call('validate', text).then(
        (diagnostics) => {
          if (mine === validateSeq) set({ diagnostics });
        },
        () => undefined,
      );
    },
    async applyText() {
      const text = get().text;
      set({ engine: 'busy' });
      try {
        const answer = await deps.lab.call('apply', text);
        took(answer, text);
        // A trace recorded on the cluster before the change would replay stale rules.
        if (answer.accepted) {
          stopTimer();
          set({ trace: undefined, cursor: -1, playing: false });
        }
        set({
          lastApply: {
            accepted: answer.accepted,
            ruleDiffs: answer.ruleDiffs,
            ...(answer.refused === undefined ? {} : { refused: answer.refused }),
          },
          engine: 'ready',
        });
        await get().refreshViews();
      } catch (e) {
        fail(e);
      }
    },
    async loadPreset(id, given) {
      stopTimer();
      const text = await localize(given ?? (await deps.lab.call('defaultScenario')));
      set({
        engine: 'busy',
        presetId: id,
        text,
        trace: undefined,
        cursor: -1,
        playing: false,
        lastApply: undefined,
      });
      persist();
      try {
        const answer = await deps.lab.call('load', text);
        took(answer, text);
        set({ engine: 'ready' });
        await get().refreshViews();
      } catch (e) {
        fail(e);
      }
    },
    async relocalizeScenario() {
      const [text, goodText] = [get().text, get().goodText];
      const next = { text: await localize(text), goodText: await localize(goodText) };
      // An edit made meanwhile is the learner's: it wins (the next switch translates it).
      if (get().text !== text || get().goodText !== goodText) return;
      if (next.text === text && next.goodText === goodText) return;
      // Only comments change: the running cluster, built from goodText, is the same cluster.
      set(next);
      persist();
    },
    beforeLink: readBeforeLink(deps.storage) || undefined,
    async openLink(text) {
      const before = get().text;
      if (before !== '' && before !== text) {
        set({ beforeLink: before });
        writeBeforeLink(deps.storage, before);
      }
      await get().loadPreset('link', text);
      set({ notice: { kind: 'link', detail: '' } });
    },
    restoreBeforeLink() {
      const before = get().beforeLink;
      if (before === undefined) return;
      get().setText(before);
      set({ beforeLink: undefined, notice: undefined });
      writeBeforeLink(deps.storage, undefined);
    },
    async changeSetting(setting) {
      const text = await deps.lab.call('withSetting', get().text, setting);
      set({ text });
      persist();
      await get().applyText();
    },
  };
}
