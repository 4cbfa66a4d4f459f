/**
 * The store's React side: one hook over the vanilla store. Only src/ui/store imports zustand.
 */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { AppStore } from './create-store';
import type { AppState } from './types';

export { createAppStore, type AppStore } from './create-store';
export type { AppState, PanelTab, LabCaller, TerminalDraft } from './types';

export const StoreContext = createContext<AppStore | undefined>(undefined);

function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (store === undefined) throw new Error('StoreContext is missing');
  return store;
}

/** Reads one value (or an action) from the store. */
export function useLab<T>(selector: (s: AppState) => T): T {
  return useStore(useAppStore(), selector);
}

/** Reads several values; re-renders only when one of them changes. */
export function useLabShallow<T extends object>(selector: (s: AppState) => T): T {
  return useStore(useAppStore(), useShallow(selector));
}
