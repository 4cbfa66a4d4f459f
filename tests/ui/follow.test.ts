/**
 * The projector window follows the lab window over a BroadcastChannel (app/follow.ts): it
 * gets everything once it says hello, then every change (a trace, the cursor), and the leader
 * posts nothing while no window follows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { channelName, follow, lead, type FollowMessage } from '../../src/ui/app/follow';
import { createAppStore } from '../../src/ui/store/create-store';
import type { LabCaller } from '../../src/ui/store/types';
import { LabSession } from '../../src/worker/lab-session';
import { inline } from '../helpers/inline-lab';

const NO_ENGINE: LabCaller = { call: () => Promise.reject(new Error('follower')) };
const channels: BroadcastChannel[] = [];
const open = (id: string) => {
  const c = new BroadcastChannel(channelName(id));
  channels.push(c);
  return c;
};
const settle = () => new Promise((r) => setTimeout(r, 50));

afterEach(() => {
  for (const c of channels.splice(0)) c.close();
});

describe('projector window', () => {
  it('draws what the leader shows, step for step; nothing is posted before it follows', async () => {
    const leader = createAppStore({ lab: inline(new LabSession()) });
    const seen: FollowMessage[] = [];
    open('t1').onmessage = (e: MessageEvent<FollowMessage>) => void seen.push(e.data);
    lead(leader, open('t1'));
    await leader.getState().start();
    await settle();
    expect(seen.map((m) => m.type)).toEqual(['leader']);

    const follower = createAppStore({ lab: NO_ENGINE });
    follow(follower, open('t1'));
    await settle();
    const same = (k: 'goodText' | 'topology' | 'views' | 'trace' | 'cursor') =>
      expect(follower.getState()[k], k).toEqual(leader.getState()[k]);
    for (const k of ['goodText', 'topology', 'views', 'cursor'] as const) same(k);

    await leader.getState().send(leader.getState().draft);
    leader.getState().seek(12);
    await settle();
    same('trace');
    expect(follower.getState().cursor).toBe(12);
    expect(follower.getState().trace!.entries.length).toBeGreaterThan(40);
    // The follower's own view settings stay its own.
    follower.getState().toggleLargeText();
    await settle();
    expect(leader.getState().largeText).toBe(false);
  });

  it("speaks the leader's language, now and after a switch", async () => {
    const leader = createAppStore({ lab: inline(new LabSession()) });
    let language = 'zh-CN';
    let changed: (() => void) | undefined;
    lead(leader, open('t3'), {
      current: () => language,
      onChange: (listener) => (changed = listener),
    });
    const heard: string[] = [];
    follow(createAppStore({ lab: NO_ENGINE }), open('t3'), { set: (l) => heard.push(l) });
    await settle();
    expect(heard).toEqual(['zh-CN']);
    language = 'en';
    changed!();
    await settle();
    expect(heard).toEqual(['zh-CN', 'en']);
  });

  it('says hello again when the leading tab reloads', async () => {
    const follower = createAppStore({ lab: NO_ENGINE });
    follow(follower, open('t2'));
    await settle();
    const leader = createAppStore({ lab: inline(new LabSession()) });
    await leader.getState().start();
    lead(leader, open('t2'));
    await settle();
    expect(follower.getState().goodText).toBe(leader.getState().goodText);
    expect(follower.getState().goodText).toContain('kind: KubeProxyConfiguration');
  });
});
