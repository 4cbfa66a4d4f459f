/**
 * A projector window that follows the lab window which opened it. The presenter keeps the
 * whole lab (editor, lessons, terminal) on the laptop's screen; the second window, on the
 * projector, shows the graph, the lane and conntrack at the presenter's step.
 *
 * The follower runs no engine of its own: the store's data is serialisable (the worker already
 * hands it over by message), so the leader posts what changed to a BroadcastChannel of the
 * same browser, and the follower renders it. Nothing leaves the machine; the channel is named
 * after the leading tab (sessionStorage), so a reload of the presenter's tab keeps its
 * projector window, and two lab tabs never mix.
 */
import type { AppStore } from '../store';
import type { AppState } from '../store/types';

/** What a follower needs to draw the presenter's lab; view settings stay each window's own. */
const SYNCED = [
  'text',
  'goodText',
  'presetId',
  'diagnostics',
  'lastApply',
  'engine',
  'notice',
  'topology',
  'views',
  'trace',
  'cursor',
  'playing',
  'speed',
  'viewNode',
] as const satisfies readonly (keyof AppState)[];

type SyncedState = Partial<Pick<AppState, (typeof SYNCED)[number]>>;

export type FollowMessage =
  /** From a follower: send me everything (and from now on, every change). */
  | { readonly type: 'hello' }
  /** From a leader that (re)started: followers, say hello. */
  | { readonly type: 'leader' }
  | { readonly type: 'state'; readonly state: SyncedState }
  /** The leader's language: the projector speaks it too (a switch there stays its own). */
  | { readonly type: 'language'; readonly language: string };

/** How a window reads, hears about and sets its language (i18n/index.ts in the app). */
export interface LanguageLink {
  readonly current: () => string;
  readonly onChange: (listener: () => void) => void;
  readonly set: (language: string) => void;
}

const ID_KEY = 'kube-proxy-lab:lead-id';

/** This tab's channel id: kept for the tab's life (sessionStorage), so a reload keeps it. */
export function leadId(session: Pick<Storage, 'getItem' | 'setItem'> | undefined): string {
  try {
    const known = session?.getItem(ID_KEY);
    if (known) return known;
    const id = crypto.randomUUID();
    session?.setItem(ID_KEY, id);
    return id;
  } catch {
    return crypto.randomUUID();
  }
}

export function channelName(id: string): string {
  return `kube-proxy-lab:follow:${id}`;
}

function pick(state: AppState, keys: readonly (typeof SYNCED)[number][]): SyncedState {
  return Object.fromEntries(keys.map((k) => [k, state[k]])) as SyncedState;
}

/**
 * The leader's side: once a follower has said hello it gets everything, then every change of
 * the synced state as it happens (nothing is posted while no window follows). Returns the
 * function that stops leading.
 */
export function lead(
  store: AppStore,
  channel: BroadcastChannel,
  language?: Pick<LanguageLink, 'current' | 'onChange'>,
): () => void {
  let followed = false;
  const post = (state: SyncedState) =>
    channel.postMessage({ type: 'state', state } satisfies FollowMessage);
  const postLanguage = () => {
    if (followed && language !== undefined)
      channel.postMessage({
        type: 'language',
        language: language.current(),
      } satisfies FollowMessage);
  };
  channel.onmessage = (e: MessageEvent<FollowMessage>) => {
    if (e.data?.type !== 'hello') return;
    followed = true;
    post(pick(store.getState(), SYNCED));
    postLanguage();
  };
  language?.onChange(postLanguage);
  const stop = store.subscribe((now, before) => {
    if (!followed) return;
    const changed = SYNCED.filter((k) => now[k] !== before[k]);
    if (changed.length > 0) post(pick(now, changed));
  });
  // A follower opened before this tab (re)loaded says hello again.
  channel.postMessage({ type: 'leader' } satisfies FollowMessage);
  return () => {
    stop();
    channel.onmessage = null;
  };
}

/** The follower's side: asks for everything, then takes each change as it comes. */
export function follow(
  store: AppStore,
  channel: BroadcastChannel,
  language?: Pick<LanguageLink, 'set'>,
): () => void {
  const hello = () => channel.postMessage({ type: 'hello' } satisfies FollowMessage);
  channel.onmessage = (e: MessageEvent<FollowMessage>) => {
    if (e.data?.type === 'state') store.setState(e.data.state);
    else if (e.data?.type === 'language') language?.set(e.data.language);
    else if (e.data?.type === 'leader') hello();
  };
  hello();
  return () => {
    channel.onmessage = null;
  };
}
