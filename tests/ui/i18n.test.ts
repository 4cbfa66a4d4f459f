/**
 * Every explanation id the engine can put in a trace has a zh-CN text with the same
 * parameters, and both UI catalogues have the same keys.
 */
import { describe, expect, it } from 'vitest';
import { DATAPATH_MESSAGES } from '../../src/engine';
import { EN } from '../../src/ui/i18n/en';
import { TRACE_MESSAGES_ZH } from '../../src/ui/i18n/trace-zh';
import { ZH } from '../../src/ui/i18n/zh-CN';

const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('translations', () => {
  it.each(Object.entries(DATAPATH_MESSAGES))(
    '%s has a zh-CN text with the same parameters',
    (id, en) => {
      const zh = TRACE_MESSAGES_ZH[id];
      expect(zh).toBeDefined();
      expect(params(zh!)).toEqual(params(en));
    },
  );

  it('has no zh-CN text for an id the engine does not emit', () => {
    expect(Object.keys(TRACE_MESSAGES_ZH).filter((id) => !(id in DATAPATH_MESSAGES))).toEqual([]);
  });

  it('gives the UI the same keys and {{parameters}} in both languages', () => {
    expect(keys(ZH)).toEqual(keys(EN));
    const at = (o: object, path: string) =>
      path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], o) as string;
    for (const k of keys(EN)) {
      const p = (t: string) => [...t.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(p(at(ZH, k)), k).toEqual(p(at(EN, k)));
    }
  });
});
