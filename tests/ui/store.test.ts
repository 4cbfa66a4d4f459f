/**
 * The vanilla store driven by a LabSession inline (no worker, no React): the round trip the
 * web lab makes, with persistence in a plain map and playback timers driven by hand.
 */
import { describe, expect, it } from 'vitest';
import type { Language } from '../../src/ui/i18n';
import { localizeScenario } from '../../src/ui/i18n/scenario-comments';
import { createAppStore } from '../../src/ui/store/create-store';
import { BEFORE_LINK_KEY, STORAGE_KEY } from '../../src/ui/store/persist';
import { conntrackAt, countersAt, parseCounters } from '../../src/ui/store/trace-model';
import { LabSession } from '../../src/worker/lab-session';
import { inline } from '../helpers/inline-lab';

function memoryStorage() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    m,
  };
}

describe('app store', () => {
  it('starts on the built-in scenario, sends, and plays the trace step by step', async () => {
    const storage = memoryStorage();
    let tick: (() => void) | undefined;
    const store = createAppStore({
      lab: inline(new LabSession()),
      storage,
      setInterval: (fn) => ((tick = fn), 1),
      clearInterval: () => (tick = undefined),
    });
    await store.getState().start();
    expect(store.getState().topology?.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2']);
    await store.getState().send(store.getState().draft);
    const entries = store.getState().trace!.entries;
    expect(entries.length).toBeGreaterThan(40);
    store.getState().play();
    let steps = 0;
    while (tick !== undefined && steps < 1000) {
      tick();
      steps++;
    }
    expect(store.getState().cursor).toBe(entries.length - 1);
    expect(store.getState().playing).toBe(false);
    // The conntrack table replayed from the trace ends as `conntrack -L` printed it.
    const replayed = conntrackAt(
      entries,
      entries.length - 2,
      'node-1',
      store.getState().trace!.before['node-1']!.conntrack,
    );
    const after = store.getState().trace!.after['node-1']!.conntrack.trim();
    expect(replayed.filter((r) => r.state !== 'unconfirmed').map((r) => r.text)).toEqual([after]);
    // Counters replayed from the trace match iptables-save -c after the packets.
    const counted = countersAt(
      entries,
      entries.length - 1,
      'node-1',
      parseCounters(store.getState().trace!.before['node-1']!.rules),
    );
    const real = parseCounters(store.getState().trace!.after['node-1']!.rules);
    for (const [key, c] of real)
      expect(counted.get(key) ?? { packets: 0, bytes: 0 }, key).toEqual(c);
  });

  it('saves every edit at once and restores it, with the last good text, after a reload', async () => {
    const storage = memoryStorage();
    const first = createAppStore({ lab: inline(new LabSession()), storage });
    await first.getState().start();
    const good = first.getState().goodText;
    first.getState().setText(`${good}\n---\nkind: Service\n`);
    expect(JSON.parse(storage.m.get(STORAGE_KEY)!).text).toContain('kind: Service\n');
    await first.getState().applyText();
    expect(first.getState().lastApply?.accepted).toBe(false);
    const second = createAppStore({ lab: inline(new LabSession()), storage });
    await second.getState().start();
    expect(second.getState().text).toBe(`${good}\n---\nkind: Service\n`);
    expect(second.getState().goodText).toBe(good);
    expect(second.getState().diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });

  it('refuses an empty apply (the cluster and the good text stay); Start over rebuilds a cluster even from an empty saved good text', async () => {
    const storage = memoryStorage();
    const first = createAppStore({ lab: inline(new LabSession()), storage });
    await first.getState().start();
    const good = first.getState().goodText;
    first.getState().setText('');
    await first.getState().applyText();
    expect(first.getState().lastApply).toMatchObject({ accepted: false, refused: 'noObjects' });
    expect(first.getState().goodText).toBe(good);
    expect(first.getState().topology?.nodes).toHaveLength(2);
    await first.getState().restartCluster();
    expect(first.getState().topology?.nodes).toHaveLength(2);
    expect(first.getState().text).toBe('');
    // A good text an older lab saved after applying nothing but comments: Start over falls
    // back to the built-in scenario rather than to a cluster without nodes.
    const saved = JSON.parse(storage.m.get(STORAGE_KEY)!) as Record<string, unknown>;
    storage.setItem(STORAGE_KEY, JSON.stringify({ ...saved, goodText: '# nothing\n', text: '' }));
    const second = createAppStore({ lab: inline(new LabSession()), storage });
    await second.getState().start();
    expect(second.getState().goodText).toContain('kind: Node');
    expect(second.getState().topology?.nodes).toHaveLength(2);
    await second.getState().restartCluster();
    expect(second.getState().topology?.nodes).toHaveLength(2);
  });

  it("hands out the lab's scenarios with comments in the learner's language; switching keeps the learner's text", async () => {
    const storage = memoryStorage();
    let lang: Language = 'zh-CN';
    const localize = (text: string) => localizeScenario(text, lang);
    const store = createAppStore({
      lab: inline(new LabSession()),
      storage,
      localizeScenario: localize,
    });
    await store.getState().start();
    const zh = store.getState().text;
    expect(zh).toMatch(/^# 一个小集群：两个节点/);
    expect(store.getState().goodText).toBe(zh);
    const rules = store.getState().views['node-1']!.rules;

    // The learner edits (their own comment, a Service port); then switches to English.
    const edited = zh.replace('port: 80', 'port: 81').replace(/^/, '# 我的笔记\n');
    store.getState().setText(edited);
    lang = 'en';
    await store.getState().relocalizeScenario();
    const en = store.getState().text;
    expect(en).toMatch(/^# 我的笔记\n# A small cluster: two nodes/);
    expect(en).toContain('port: 81');
    expect(store.getState().goodText).toMatch(/^# A small cluster/);
    expect(JSON.parse(storage.m.get(STORAGE_KEY)!).text).toBe(en);
    // Only comments changed: the cluster is the one it was.
    await store.getState().refreshViews();
    expect(store.getState().views['node-1']!.rules).toBe(rules);

    // A preset loaded in zh-CN comes in zh-CN; a reload in English brings the saved text back in English.
    lang = 'zh-CN';
    await store.getState().loadPreset('lesson:x', '# or ipvs, nftables\nkind: Lab\n');
    expect(store.getState().text).toBe('# 也可以是 ipvs、nftables\nkind: Lab\n');
    lang = 'en';
    const again = createAppStore({
      lab: inline(new LabSession()),
      storage,
      localizeScenario: localize,
    });
    await again.getState().start();
    expect(again.getState().text).toBe('# or ipvs, nftables\nkind: Lab\n');
  });

  it('starts over: the same packets then play exactly as the first time', async () => {
    const store = createAppStore({ lab: inline(new LabSession()) });
    await store.getState().start();
    const fresh = store.getState().views['node-1']!;
    const send = async () => {
      await store.getState().send({ ...store.getState().draft, protocol: 'tcp', count: 3 });
      return JSON.stringify(store.getState().trace!.runs);
    };
    store.getState().setDraft({ to: { kind: 'address', ip: '10.96.1.1', port: 80 } });
    const first = await send();
    const second = await send();
    // Later sends differ (new ephemeral ports, conntrack entries, the clock, other draws)…
    expect(second).not.toBe(first);
    expect(store.getState().views['node-1']!.conntrack).not.toBe(fresh.conntrack);
    // …until the cluster starts over: then they replay the first one byte for byte.
    store.getState().setText(`${store.getState().goodText}\n---\nkind: Service\n`);
    await store.getState().restartCluster();
    expect(store.getState().trace).toBeUndefined();
    expect(store.getState().views['node-1']).toEqual(fresh);
    expect(store.getState().text).toContain('kind: Service\n');
    expect(store.getState().diagnostics.some((d) => d.severity === 'error')).toBe(true);
    expect(await send()).toBe(first);
  });

  it('opens a shared link, keeps the text it replaced, and puts it back on request', async () => {
    const storage = memoryStorage();
    const store = createAppStore({ lab: inline(new LabSession()), storage });
    await store.getState().start();
    const mine = store.getState().text.replace('port: 80', 'port: 81');
    store.getState().setText(mine);
    const shared = store.getState().goodText.replace('replicas: 3', 'replicas: 2');
    await store.getState().openLink(shared);
    expect(store.getState().text).toBe(shared);
    expect(store.getState().goodText).toBe(shared);
    expect(store.getState().presetId).toBe('link');
    expect(store.getState().notice?.kind).toBe('link');
    expect(store.getState().beforeLink).toBe(mine);
    // Kept across a reload too.
    expect(storage.m.get(BEFORE_LINK_KEY)).toBe(mine);
    const reloaded = createAppStore({ lab: inline(new LabSession()), storage });
    expect(reloaded.getState().beforeLink).toBe(mine);
    store.getState().restoreBeforeLink();
    expect(store.getState().text).toBe(mine);
    expect(store.getState().goodText).toBe(shared);
    expect(store.getState().beforeLink).toBeUndefined();
    expect(store.getState().notice).toBeUndefined();
    expect(createAppStore({ lab: inline(new LabSession()), storage }).getState().beforeLink).toBe(
      undefined,
    );
  });
});
