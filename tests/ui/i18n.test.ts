/**
 * Every explanation id the engine can put in a trace has a zh-CN text with the same
 * parameters, and both UI catalogues have the same keys.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DATAPATH_MESSAGES, LAB_NOTES } from '../../src/engine';
import { loadZhTexts, terminalText, withoutTerminalStyles } from '../../src/ui/i18n';
import { LabSession } from '../../src/worker/lab-session';
import { LAB_NOTES_ZH } from '../../src/explain/zh-CN/notes';
import { EN } from '../../src/ui/i18n/en';
import { TRACE_MESSAGES_ZH } from '../../src/explain/zh-CN/trace';
import { ZH } from '../../src/ui/i18n/zh-CN';

const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('translations', () => {
  // The zh-CN texts of steps and notes load on demand (i18n/index.ts); before they are here a
  // note reads in English, as the engine wrote it.
  beforeAll(async () => {
    const answer = new LabSession().run('node-1', 'tracepath 10.96.1.1');
    expect(answer.notes.length).toBeGreaterThan(0);
    expect(terminalText(answer, 'zh-CN')).toBe(answer.terminal);
    await loadZhTexts();
  });

  it.each(Object.entries(DATAPATH_MESSAGES))(
    '%s has a zh-CN text with the same parameters',
    (id, en) => {
      const zh = TRACE_MESSAGES_ZH[id];
      expect(zh).toBeDefined();
      expect(params(zh!)).toEqual(params(en));
    },
  );

  it.each(Object.entries(LAB_NOTES))(
    'lab note %s has a zh-CN text with the same parameters and the same first word',
    (id, en) => {
      const zh = LAB_NOTES_ZH[id];
      expect(zh).toBeDefined();
      expect(params(zh!)).toEqual(params(en));
      // The program that speaks (`lab:`, `curl:`) stays, as a terminal shows it.
      expect(zh!.split(' ')[0]).toBe(en.split(' ')[0]);
    },
  );

  it('has no zh-CN text for a lab note the engine does not have', () => {
    expect(Object.keys(LAB_NOTES_ZH).filter((id) => !(id in LAB_NOTES))).toEqual([]);
  });

  it("translates the lab's notes in a terminal answer and no other line", () => {
    const answer = {
      terminal: 'Chain X\nlab: ss is not modelled in kube-proxy-lab; …\nlast\n',
      notes: [{ line: 1, id: 'command.unmodelled', params: { command: 'ss' } }],
    };
    const zh = terminalText(answer, 'zh-CN').split('\n');
    expect(zh[0]).toBe('Chain X');
    expect(zh[1]).toMatch(/^lab: 实验台没有模拟 ss；它能运行 iptables、/);
    expect(zh.slice(2)).toEqual(['last', '']);
    expect(terminalText(answer, 'en')).toBe(answer.terminal);
  });

  it("shows the lab command's own help and messages in zh-CN, the command lines as typed", () => {
    const answer = new LabSession().run('pod/default/client', 'lab flow; lab flow send nope');
    const zh = terminalText(answer, 'zh-CN').split('\n');
    expect(zh[0]).toBe('Usage: lab flow open 名字 tcp|udp IP:端口');
    expect(zh[1]).toBe('       lab flow send NAME [-w SECONDS] [TEXT...]');
    expect(zh.filter((l) => /[\u4e00-\u9fff]/.test(l))).toHaveLength(10);
    expect(zh.at(-2)).toBe('lab flow: nope: 没有这个 flow');
  });

  it("drops the terminal's bold for a page (curl -i on a terminal)", () => {
    expect(withoutTerminalStyles('\x1b[1mDate\x1b[0m: Thu\r\n')).toBe('Date: Thu\r\n');
  });

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
