/**
 * The options of `kube-proxy-lab run`: --echo, --json, --trace[=all], --lang zh-CN|en; the
 * other arguments are the scenario and script files (main.ts tells which is which).
 */
import type { Texts } from '../explain/words';
import { LAB_NOTES_ZH } from '../explain/zh-CN/notes';
import { TRACE_MESSAGES_ZH } from '../explain/zh-CN/trace';

/** The texts of the lab's own words for --lang (English: the engine's own, undefined). */
const LANGUAGES: Readonly<Record<string, Texts | undefined>> = {
  en: undefined,
  'zh-CN': { trace: TRACE_MESSAGES_ZH, notes: LAB_NOTES_ZH },
};

/** run's options; `files` are the other arguments. */
export interface RunOptions {
  readonly echo: boolean;
  readonly json: boolean;
  /** --trace: the key steps ('key') or every step ('all'). */
  readonly trace: 'key' | 'all' | undefined;
  readonly texts: Texts | undefined;
  readonly files: readonly string[];
}

/** The options, or what to say before the usage (exit status 2). */
export function runOptions(args: readonly string[]): RunOptions | string {
  let echo = false;
  let json = false;
  let trace: RunOptions['trace'];
  let texts: Texts | undefined;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--echo') echo = true;
    else if (a === '--json') json = true;
    else if (a === '--trace' || a === '--trace=key') trace = 'key';
    else if (a === '--trace=all') trace = 'all';
    else if (a === '--lang' || a.startsWith('--lang=')) {
      const lang = a === '--lang' ? args[++i] : a.slice('--lang='.length);
      if (lang === undefined || !Object.hasOwn(LANGUAGES, lang))
        return `kube-proxy-lab: --lang takes zh-CN or en\n`;
      texts = LANGUAGES[lang];
    } else if (a.startsWith('-') && a !== '-') return `kube-proxy-lab: unknown option ${a}\n`;
    else files.push(a);
  }
  if (json && trace !== undefined) return 'kube-proxy-lab: --json and --trace do not go together\n';
  if (files.length > 2) return '';
  return { echo, json, trace, texts, files };
}
