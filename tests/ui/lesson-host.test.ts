/**
 * The lessons panel's host on the app store: a command to complete goes to the terminal, unrun
 * (src/lessons/types.ts, CommandToComplete), with the cursor just after its placeholder.
 */
import { describe, expect, it } from 'vitest';
import { createLessonHost } from '../../src/ui/lessons/store-host';
import { createAppStore } from '../../src/ui/store/create-store';
import { LabSession } from '../../src/worker/lab-session';
import { inline } from '../helpers/inline-lab';

function setUp() {
  const m = new Map<string, string>();
  const storage = {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
  };
  const lab = inline(new LabSession());
  const store = createAppStore({
    lab,
    storage,
    setInterval: () => 1,
    clearInterval: () => undefined,
  });
  return { store, host: createLessonHost(store, lab) };
}

describe('lesson host: a command to complete', () => {
  it('opens the Terminal tab on its host with the line typed and the cursor after the placeholder', () => {
    const { store, host } = setUp();
    store.setState({ tab: 'scenario', editorOpen: false });
    host.completeInTerminal({
      line: 'node-1$ kubectl delete pod ECHO-POD --wait=false',
      placeholder: 'ECHO-POD',
      fill: { 'zh-CN': '回答的 Pod', en: 'the pod that answered' },
    });
    const s = store.getState();
    expect([s.tab, s.editorOpen]).toEqual(['terminal', true]);
    expect(s.terminalDraft).toEqual({
      host: 'node-1',
      line: 'kubectl delete pod ECHO-POD --wait=false',
      cursor: 'kubectl delete pod ECHO-POD'.length,
    });
    s.clearTerminalDraft();
    expect(store.getState().terminalDraft).toBeUndefined();
  });

  it('runs nothing: the cluster has not seen the command', async () => {
    const { store, host } = setUp();
    await store.getState().start();
    host.completeInTerminal({
      line: 'pod/client$ curl -sS http://NAME/',
      placeholder: 'NAME',
      fill: { 'zh-CN': '名字', en: 'a name' },
    });
    expect(store.getState().terminalDraft).toMatchObject({
      host: 'pod/client',
      cursor: 'curl -sS http://NAME'.length,
    });
    expect(store.getState().trace).toBeUndefined();
  });
});

describe('lesson host: a scenario edit', () => {
  it('says when the scenario has no text to change, and changes and applies nothing', async () => {
    const { store, host } = setUp();
    await store.getState().start();
    const before = store.getState().text;
    const applied = store.getState().goodText;
    const missing = 'loadBalancerSourceRanges: [192.168.1.100/32]';
    expect(before).not.toContain(missing);
    expect(await host.editAndApply(missing, 'loadBalancerSourceRanges: [10.244.0.0/16]')).toBe(
      false,
    );
    expect([store.getState().text, store.getState().goodText]).toEqual([before, applied]);
  });

  it('replaces the text and applies it when it is there', async () => {
    const { store, host } = setUp();
    await store.getState().start();
    const line = /^\s*replicas: \d+$/m.exec(store.getState().text)![0];
    expect(await host.editAndApply(line, line.replace(/\d+$/, '1'))).toBe(true);
    expect(store.getState().goodText).toContain(line.replace(/\d+$/, '1'));
  });
});
