/**
 * The trace as text (Events ▸ Copy as text / Save as text), from a real trace: the built-in
 * scenario's DNS query from the client, through the store as the web lab drives it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { explainStep, loadZhTexts } from '../../src/ui/i18n';
import { traceText } from '../../src/ui/packets/trace-text';
import { createAppStore } from '../../src/ui/store/create-store';
import { isKeyStep, type TraceEntry } from '../../src/explain/trace-text';
import { LabSession } from '../../src/worker/lab-session';
import { inline } from '../helpers/inline-lab';

let trace: { runs: never[]; entries: TraceEntry[] } & Record<string, unknown>;

beforeAll(async () => {
  await loadZhTexts();
  const store = createAppStore({ lab: inline(new LabSession()) });
  await store.getState().start();
  await store.getState().send(store.getState().draft);
  trace = store.getState().trace as never;
});

describe('trace as text', () => {
  it('holds the command and its output, then one block per listed step, in order', () => {
    const text = traceText(trace, false, 'en');
    const run = trace.runs[0] as unknown as { prompt: string };
    expect(text.startsWith(`${run.prompt}\n`)).toBe(true);
    const keys = trace.entries.filter((e) => isKeyStep(e.step));
    const heads = [...text.matchAll(/^#(\d+) {2}(\S+)/gm)];
    // Numbered as the player counts (1-based: "Step 1 of N" is the first entry).
    expect(heads.map((m) => Number(m[1]))).toEqual(keys.map((e) => trace.entries.indexOf(e) + 1));
    expect(heads.map((m) => m[2])).toEqual(keys.map((e) => e.host));
    // The DNAT to a CoreDNS pod, its rule and why it happened.
    expect(text).toMatch(/^#\d+ {2}node-1 .*DNAT UDP 10\.244\.0\.5:\d+ → 10\.96\.0\.10:53 ⇒ UDP 10\.244\.0\.5:\d+ → 10\.244\.0\.[23]:53/m); // prettier-ignore
    expect(text).toMatch(/^ {4}-A KUBE-SEP-\w+ .*-j DNAT --to-destination 10\.244\.0\.[23]:53$/m);
    for (const e of keys) expect(text).toContain(`    ${e.step.text.split('\n')[0]}`);
  });

  it('lists every step with "every step" on, and explains them in zh-CN', () => {
    const all = traceText(trace, true, 'en');
    expect([...all.matchAll(/^#\d+ {2}/gm)]).toHaveLength(trace.entries.length);
    const zh = traceText(trace, true, 'zh-CN');
    expect([...zh.matchAll(/^#\d+ {2}/gm)]).toHaveLength(trace.entries.length);
    const first = trace.entries[0]!.step;
    expect(explainStep(first, 'zh-CN')).not.toBe(first.text);
    expect(zh).toContain(`    ${explainStep(first, 'zh-CN').split('\n')[0]}`);
    expect(zh).not.toContain(`    ${first.text.split('\n')[0]}`);
  });
});
