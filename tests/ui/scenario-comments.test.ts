/**
 * The lab's scenario texts with their comments in zh-CN: every comment the lab wrote has a
 * translation, the YAML a language gives is the same data line for line, and a learner's own
 * text (quoted or block scalars that look like comments, their own comments) is never touched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { DEFAULT_SCENARIO, runScript, World } from '../../src/engine';
import { LESSONS } from '../../src/lessons/catalog';
import {
  commentsIn,
  localizeScenario,
  SCENARIO_COMMENTS_ZH,
} from '../../src/ui/i18n/scenario-comments';

const experiments = readdirSync('scenarios').map((dir) => ({
  name: `scenarios/${dir}`,
  text: readFileSync(`scenarios/${dir}/scenario.yaml`, 'utf8'),
}));
const TEXTS = [
  { name: 'built-in scenario', text: DEFAULT_SCENARIO },
  ...experiments,
  ...LESSONS.map((l) => ({ name: `lesson ${l.id}`, text: l.scenario })),
];

const data = (text: string) => parseAllDocuments(text).map((d) => d.toJS() as unknown);
const ENGLISH = new Set(Object.keys(SCENARIO_COMMENTS_ZH));
const CHINESE = new Set(Object.values(SCENARIO_COMMENTS_ZH));

describe('scenario comments in zh-CN', () => {
  it('the table is one-to-one, one line per entry, and every translation is Chinese', () => {
    expect(CHINESE.size).toBe(ENGLISH.size);
    for (const [en, zh] of Object.entries(SCENARIO_COMMENTS_ZH)) {
      expect(ENGLISH.has(zh), zh).toBe(false);
      expect(`${en}${zh}`, en).not.toMatch(/[\r\n]/);
      expect(zh, en).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it.each(TEXTS)(
    '$name: every comment has its Chinese, and the data stays the same',
    ({ text }) => {
      expect(commentsIn(text).length).toBeGreaterThan(0);
      const zh = localizeScenario(text, 'zh-CN');
      for (const c of commentsIn(zh)) expect(CHINESE.has(c), `untranslated: ${c}`).toBe(true);
      expect(zh.split('\n').length).toBe(text.split('\n').length);
      expect(data(zh)).toEqual(data(text));
      // Back to English gives the text as the lab ships it, byte for byte.
      expect(localizeScenario(zh, 'en')).toBe(text);
      expect(localizeScenario(text, 'en')).toBe(text);
      expect(localizeScenario(zh, 'zh-CN')).toBe(zh);
    },
  );

  it('the engine builds the same cluster from either language', () => {
    const script =
      'node-1$ iptables-save\nnode-2$ iptables-save\nnode-1$ kubectl get svc,pods -A -o wide\n';
    for (const { name, text } of [TEXTS[0]!, ...experiments.slice(0, 3)]) {
      const views = (t: string) => {
        const { world, diagnostics } = World.fromScenario(t);
        let out = '';
        runScript(world, script, {
          readFile: () => undefined,
          onOutput: (_line, r) => void (out += `${r.stdout}${r.stderr}${r.exitCode}\n`),
        });
        return { diagnostics, out };
      };
      const en = views(text);
      expect(en.out, name).toContain('-A KUBE-SERVICES');
      expect(views(localizeScenario(text, 'zh-CN')), name).toEqual(en);
    }
  });

  it("every lesson's edits, in order, find their text in the Chinese scenario too", () => {
    let edits = 0;
    for (const lesson of LESSONS) {
      let en = lesson.scenario;
      let zh = localizeScenario(en, 'zh-CN');
      for (const { edit, yaml } of lesson.steps) {
        // As the lessons panel does it (src/ui/lessons/store-host.ts): append, or edit.
        if (yaml !== undefined) {
          en = `${en.replace(/\s*$/, '\n')}${yaml.replace(/^\n+/, '')}`;
          zh = `${zh.replace(/\s*$/, '\n')}${yaml.replace(/^\n+/, '')}`;
        }
        if (edit === undefined) continue;
        expect(en, lesson.id).toContain(edit.replace);
        expect(zh, lesson.id).toContain(edit.replace);
        en = en.replace(edit.replace, edit.with);
        zh = zh.replace(edit.replace, edit.with);
        expect(data(zh), lesson.id).toEqual(data(en));
        edits++;
      }
    }
    expect(edits).toBeGreaterThan(3);
  });

  it('leaves quoted and block scalars alone, and the comments of a learner', () => {
    const text = [
      'a: 1  # or ipvs, nftables',
      'b: "x # or ipvs, nftables"',
      "c: 'it''s # or ipvs, nftables'",
      'd: |',
      '  # or ipvs, nftables',
      '',
      '  # or ipvs, nftables',
      'e: "two',
      '  # or ipvs, nftables"',
      '# my own note',
      'f: >- # or ipvs, nftables',
      '  # or ipvs, nftables',
      '# or ipvs, nftables',
    ].join('\n');
    expect(localizeScenario(text, 'zh-CN').split('\n')).toEqual([
      'a: 1  # 也可以是 ipvs、nftables',
      'b: "x # or ipvs, nftables"',
      "c: 'it''s # or ipvs, nftables'",
      'd: |',
      '  # or ipvs, nftables',
      '',
      '  # or ipvs, nftables',
      'e: "two',
      '  # or ipvs, nftables"',
      '# my own note',
      'f: >- # 也可以是 ipvs、nftables',
      '  # or ipvs, nftables',
      '# 也可以是 ipvs、nftables',
    ]);
  });

  it('never changes the data of random YAML built from comment-like pieces (fast-check)', () => {
    const known = fc.constantFrom(...ENGLISH);
    const piece = fc.oneof(
      known.map((c) => (k: string) => `${k}: v  # ${c}`),
      known.map((c) => () => `# ${c}`),
      known.map((c) => (k: string) => `${k}: "q # ${c}"`),
      known.map((c) => (k: string) => `${k}: 'q''s # ${c}'`),
      known.map((c) => (k: string) => `${k}: |\n  # ${c}\n  more`),
      known.map((c) => (k: string) => `${k}: >-\n  x\n  # ${c}`),
      known.map((c) => (k: string) => `${k}: "line\n  # ${c}"`),
      known.map((c) => (k: string) => `${k}:\n  - "# ${c}"  # ${c}`),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), (pieces) => {
        const text = `${pieces.map((p, i) => p(`k${i}`)).join('\n')}\n`;
        const zh = localizeScenario(text, 'zh-CN');
        expect(data(zh)).toEqual(data(text));
        expect(localizeScenario(zh, 'en')).toBe(text);
        // The comments YAML itself reads are all translated.
        for (const c of commentsIn(zh)) expect(CHINESE.has(c), c).toBe(true);
      }),
      { seed: 20261205, numRuns: 300 },
    );
  });
});
