/**
 * Languages: zh-CN and English through i18next. The choice is remembered; the first visit
 * follows the browser's language. Kernel and tool output is never translated.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LabStep } from '../../protocol/lab';
import { EN } from './en';
import { TRACE_MESSAGES_ZH } from './trace-zh';
import { ZH } from './zh-CN';

export type Language = 'zh-CN' | 'en';
export const LANGUAGES: readonly Language[] = ['zh-CN', 'en'];
const LANGUAGE_KEY = 'kube-proxy-lab:lang';

function storedLanguage(): Language | undefined {
  try {
    const v = globalThis.localStorage?.getItem(LANGUAGE_KEY);
    return v === 'zh-CN' || v === 'en' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The browser's first preference between the two (zh-* → zh-CN, else English). */
function browserLanguage(): Language {
  const prefs = globalThis.navigator?.languages ?? [globalThis.navigator?.language ?? 'en'];
  for (const p of prefs) {
    if (p.toLowerCase().startsWith('zh')) return 'zh-CN';
    if (p.toLowerCase().startsWith('en')) return 'en';
  }
  return 'en';
}

export function initI18n(): typeof i18next {
  const lng = storedLanguage() ?? browserLanguage();
  void i18next.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources: { en: { translation: EN }, 'zh-CN': { translation: ZH } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  document.documentElement.lang = lng;
  return i18next;
}

export function setLanguage(lng: Language): void {
  void i18next.changeLanguage(lng);
  document.documentElement.lang = lng;
  try {
    globalThis.localStorage?.setItem(LANGUAGE_KEY, lng);
  } catch {
    // Not remembered; the switch still applies now.
  }
}

/** A trace step's explanation in the current language (English comes rendered from the worker). */
export function explainStep(step: LabStep, lng: string): string {
  if (lng !== 'zh-CN') return step.text;
  const template = TRACE_MESSAGES_ZH[step.why.id];
  if (template === undefined) return step.text;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => {
    const v = step.why.params?.[name];
    return v === undefined ? m : String(v);
  });
}
