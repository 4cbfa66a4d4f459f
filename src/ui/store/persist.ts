/**
 * Versioned local storage of the lab: the scenario text (every edit, valid or not), the last
 * text that ran, and the view settings. Written synchronously on every change, so a reload or
 * a dying worker never loses an edit.
 */
export const STORAGE_KEY = 'kube-proxy-lab:v1';
export const STORAGE_VERSION = 1;
/** The editor's text from before a shared link replaced it (a plain string). */
export const BEFORE_LINK_KEY = 'kube-proxy-lab:before-link';

export interface Saved {
  readonly version: typeof STORAGE_VERSION;
  readonly text: string;
  readonly goodText: string;
  readonly presetId: string;
  readonly speed: number;
  readonly largeText: boolean;
  readonly editorOpen: boolean;
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function loadSaved(storage: KeyValueStorage | undefined): Saved | undefined {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (raw == null) return undefined;
    const data = JSON.parse(raw) as Partial<Saved>;
    // Older or newer layouts are not guessed at: the lab starts fresh and keeps them as they are.
    if (data.version !== STORAGE_VERSION || typeof data.text !== 'string') return undefined;
    return {
      version: STORAGE_VERSION,
      text: data.text,
      goodText: typeof data.goodText === 'string' ? data.goodText : data.text,
      presetId: typeof data.presetId === 'string' ? data.presetId : 'builtin',
      speed: typeof data.speed === 'number' ? data.speed : 2,
      largeText: data.largeText === true,
      editorOpen: data.editorOpen !== false,
    };
  } catch {
    return undefined;
  }
}

export function save(storage: KeyValueStorage | undefined, data: Saved): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(data));
  } catch {
    // Storage full or disabled: the lab keeps running; nothing else to do.
  }
}
