/**
 * How the web lab names and numbers the steps of a real trace (the built-in scenario's DNS
 * query, through the store as the lab drives it): the lab's own words in zh-CN, the tools'
 * terms as the tools print them, and one step number in every view, the player's.
 */
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { stepTitle } from '../../src/explain/format';
import type { TraceEntry } from '../../src/explain/trace-text';
import { stepWords } from '../../src/ui/i18n';
import { EN } from '../../src/ui/i18n/en';
import { ZH } from '../../src/ui/i18n/zh-CN';
import { laneStations } from '../../src/ui/packets/lane-model';
import { traceText } from '../../src/ui/packets/trace-text';
import { createAppStore } from '../../src/ui/store/create-store';
import { stepNumber, visitAround } from '../../src/ui/store/trace-model';
import { LabSession } from '../../src/worker/lab-session';
import { inline } from '../helpers/inline-lab';

type Trace = { runs: never[]; entries: TraceEntry[] };
let first: Trace;
let second: Trace;

beforeAll(async () => {
  const store = createAppStore({ lab: inline(new LabSession()) });
  await store.getState().start();
  await store.getState().send(store.getState().draft);
  first = store.getState().trace as never;
  // The same query again: the lab keeps counting seq from where the first trace ended.
  await store.getState().send(store.getState().draft);
  second = store.getState().trace as never;
});

/** Every station label of every host visit of the trace, in order. */
function allStations(entries: readonly TraceEntry[], lng: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < entries.length;) {
    const [start, end] = visitAround(entries, i);
    out.push(...laneStations(entries, start, end, stepWords(lng)).map((s) => s.label));
    i = end + 1;
  }
  return out;
}

describe('step labels', () => {
  it("names the lane's stations in zh-CN, the tools' terms kept", () => {
    const en = allStations(first.entries, 'en');
    const zh = allStations(first.entries, 'zh-CN');
    // English as the lab has always shown it (the QA screenshots of the DNS story).
    for (const label of ['send', 'routing', 'conntrack new', 'conntrack confirmed', 'DELIVERED'])
      expect(en).toContain(label);
    for (const label of ['发送', '路由', 'conntrack 新建', 'conntrack 确认', '已交付'])
      expect(zh).toContain(label);
    for (const label of ['send', 'routing', 'conntrack new', 'conntrack confirmed', 'DELIVERED'])
      expect(zh).not.toContain(label);
    // Chains, hooks and targets are iptables' names, the same in both languages.
    for (const term of ['PREROUTING', 'KUBE-SERVICES', 'DNAT', 'POSTROUTING', 'UNDNAT'])
      expect(zh).toContain(term);
    expect(zh).toHaveLength(en.length);
  });

  it('titles steps in zh-CN without English words of the lab', () => {
    const words = stepWords('zh-CN');
    const titles = first.entries.map((e) => stepTitle(e.step, words));
    expect(titles).toContain('发送');
    expect(titles.some((t) => /^nat KUBE-SERVICES #\d+ → 不匹配$/.test(t))).toBe(true);
    expect(titles.some((t) => /^路由 本机发出 dev eth0$/.test(t))).toBe(true);
    expect(titles.some((t) => /\b(send|no match|route|new|confirmed|DELIVERED)\b/.test(t))).toBe(
      false,
    );
  });

  it('numbers the saved text as the player counts, also for a second Send', () => {
    // seq counts every step since the lab started: the second trace does not start at 0.
    expect(second.entries[0]!.step.seq).toBe(first.entries.length);
    for (const lng of ['en', 'zh-CN']) {
      const text = traceText(second, true, lng);
      const numbers = [...text.matchAll(/^#(\d+) {2}/gm)].map((m) => Number(m[1]));
      // "Step 1 of N" is entries[0]: the player shows cursor + 1 (PlaybackBar).
      expect(numbers).toEqual(second.entries.map((_, i) => i + 1));
      expect(numbers.map((n) => n - 1).map(stepNumber)).toEqual(numbers);
    }
    expect(traceText(second, true, 'zh-CN')).toMatch(/^#1 {2}pod\/default\/client {2}发送 {2}·/m);
  });

  it('says "1 step/s" in English and 每秒 1 步 in zh-CN (i18next plurals)', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'en',
      resources: { en: { translation: EN }, 'zh-CN': { translation: ZH } },
      interpolation: { escapeValue: false },
    });
    expect(i18n.t('play.perSecond', { count: 1 })).toBe('1 step/s');
    expect(i18n.t('play.perSecond', { count: 0.5 })).toBe('0.5 steps/s');
    expect(i18n.t('play.perSecond', { count: 16 })).toBe('16 steps/s');
    await i18n.changeLanguage('zh-CN');
    expect(i18n.t('play.perSecond', { count: 1 })).toBe('每秒 1 步');
    expect(i18n.t('step.number', { n: 17 })).toBe('第 17 步');
  });
});
