/**
 * Shift+→/← jump between the stops of a real trace (a DNS query through the built-in
 * scenario): every hook, rewrite, wire and verdict, in order, and nothing in between.
 */
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../src/ui/store/create-store';
import { isStop, nextStop } from '../../src/ui/store/trace-model';
import { LabSession } from '../../src/worker/lab-session';
import { inline } from '../helpers/inline-lab';

describe('trace stops', () => {
  it('visits every stop of a DNS query in order, forward and back', async () => {
    const store = createAppStore({ lab: inline(new LabSession()) });
    await store.getState().start();
    await store.getState().send(store.getState().draft);
    const entries = store.getState().trace!.entries;
    const stops = entries.flatMap((e, i) => (isStop(e.step) ? [i] : []));
    // The query and its answer: sent, DNATed, across wires, through hooks, delivered.
    const kinds = new Set(stops.map((i) => entries[i]!.step.kind));
    expect([...kinds].sort()).toEqual(['hook', 'nat', 'send', 'verdict', 'wire']);
    expect(stops.length).toBeLessThan(entries.length / 2);

    const forward: number[] = [];
    for (let c = -1, guard = 0; guard < entries.length; guard++) {
      const next = nextStop(entries, c, 1);
      if (next === c) break;
      forward.push((c = next));
    }
    const last = entries.length - 1;
    expect(forward).toEqual(stops.at(-1) === last ? stops : [...stops, last]);
    // Past the last stop: the last step (the end of the trace).
    expect(nextStop(entries, entries.length - 1, 1)).toBe(entries.length - 1);

    const back: number[] = [];
    for (let c = entries.length - 1; (c = nextStop(entries, c, -1)) >= 0;) back.push(c);
    expect(back).toEqual([...stops].reverse().filter((i) => i < entries.length - 1));
    expect(nextStop(entries, stops[0]!, -1)).toBe(-1);

    // The store's seek lands where the keys send it.
    store.getState().seek(nextStop(entries, -1, 1));
    expect(entries[store.getState().cursor]!.step.kind).toBe('send');
  });
});
