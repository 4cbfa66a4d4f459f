/**
 * Languages: zh-CN and English through i18next. The choice is remembered; the first visit
 * follows the browser's language. Kernel and tool output is never translated; the lab's own
 * notes in it are (terminalText).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { CommandAnswer, LabStep } from '../../protocol/lab';
import { explainIn, outputIn, type Texts } from '../../explain/words';
import type { StepWords } from '../../explain/format';
import { EN } from './en';
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

/**
 * The zh-CN texts of trace steps and of the lab's notes in tool output: loaded when the lab
 * first speaks zh-CN (at start, or on a switch), not with the app shell. Until they are here
 * a step or note reads as the engine wrote it (English); once here, the lab re-renders in
 * zh-CN (the language is set again, which every translated component listens to).
 */
let zhTexts: Texts | undefined;
let zhLoading: Promise<void> | undefined;

export function loadZhTexts(): Promise<void> {
  zhLoading ??= Promise.all([
    import('../../explain/zh-CN/trace'),
    import('../../explain/zh-CN/notes'),
  ]).then(([trace, notes]) => {
    zhTexts = { trace: trace.TRACE_MESSAGES_ZH, notes: notes.LAB_NOTES_ZH };
    if (i18next.isInitialized && i18next.language === 'zh-CN') void i18next.changeLanguage('zh-CN');
  });
  return zhLoading;
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
  if (lng === 'zh-CN') void loadZhTexts();
  return i18next;
}

/** The language the lab speaks now. */
export function currentLanguage(): Language {
  return i18next.language === 'zh-CN' ? 'zh-CN' : 'en';
}

export function setLanguage(lng: Language): void {
  if (lng === 'zh-CN') void loadZhTexts();
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
  return explainIn(step, lng === 'zh-CN' ? zhTexts : undefined);
}

/**
 * The lab's own words in step titles and lane stations (send, routing, conntrack's events, a
 * delivered packet) in the given language; the tools' terms around them stay as printed.
 * From the catalogues directly: a pure function needs them as one object, not key by key.
 */
export function stepWords(lng: string): StepWords {
  return lng === 'zh-CN' ? ZH.step.words : EN.step.words;
}

/**
 * A command's output as the terminal shows it, with the lab's own notes (answer.notes) in the
 * current language; every other line exactly as the tool printed it.
 */
export function terminalText(
  answer: Pick<CommandAnswer, 'terminal' | 'notes'>,
  lng: string,
): string {
  return outputIn(answer, lng === 'zh-CN' ? zhTexts : undefined);
}

/** Text for an HTML page rather than a terminal: without the terminal's bold (curl -i). */
export function withoutTerminalStyles(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}
