/**
 * The Send form's text read into a request (ui/packets/send-form.ts), against the built-in
 * scenario's topology, and the store keeping the worker's refusal for the form to show.
 * The accepted ranges are the worker's (worker/send-input.ts): port 1–65535, count 1–20.
 */
import { describe, expect, it } from 'vitest';
import type { SendRequest } from '../../src/protocol/lab';
import { readSendForm, type SendFormInput } from '../../src/ui/packets/send-form';
import { createAppStore } from '../../src/ui/store/create-store';
import { LabSession } from '../../src/worker/lab-session';
import { inline } from '../helpers/inline-lab';

const topology = new LabSession().topology();
const byAddress: SendRequest = {
  from: 'pod/default/client',
  to: { kind: 'address', ip: '', port: 0 },
  protocol: 'udp',
  count: 1,
};
const form = (change: Partial<SendFormInput>) =>
  readSendForm(
    {
      draft: byAddress,
      addressText: '10.96.0.10:53',
      countText: '1',
      countBadInput: false,
      ...change,
    },
    topology,
  );
const codes = (change: Partial<SendFormInput>) =>
  form(change).problems.map((p) => `${p.field}:${p.code}`);

describe('readSendForm', () => {
  it('builds the request from the typed text, not from the draft’s last valid values', () => {
    expect(form({ addressText: '10.96.0.1:443', countText: '3' })).toEqual({
      request: { ...byAddress, to: { kind: 'address', ip: '10.96.0.1', port: 443 }, count: 3 },
      problems: [],
    });
  });

  it('refuses every case the old form rounded, clamped or sent anyway', () => {
    expect(codes({ addressText: '10.96.0.999:53' })).toEqual(['address:addressNotIPv4']);
    expect(codes({ addressText: '10.96.0.10:0' })).toEqual(['address:portRange']);
    expect(codes({ addressText: '' })).toEqual(['address:addressEmpty']);
    expect(codes({ addressText: '10.96.0.10' })).toEqual(['address:portMissing']);
    for (const countText of ['2.5', '-1', '1e9', '0', '21'])
      expect(codes({ countText })).toEqual(['count:countRange']);
    expect(codes({ countText: '' })).toEqual(['count:countEmpty']);
    expect(codes({ countText: '', countBadInput: true })).toEqual(['count:countRange']);
    expect(form({ countText: '2.5' }).request).toBeUndefined();
  });

  it('lists problems in the form’s order and checks the rest as the worker does', () => {
    expect(
      codes({
        draft: { ...byAddress, from: 'pod/default/gone' },
        addressText: 'web:80',
        countText: '99',
      }),
    ).toEqual(['from:sourceUnknown', 'address:addressNotIPv4', 'count:countRange']);
    const gone: SendRequest = {
      ...byAddress,
      to: { kind: 'service', namespace: 'default', name: 'gone', port: 80 },
    };
    // The address text is not read for a Service destination.
    expect(codes({ draft: gone, addressText: '' })).toEqual(['to:serviceUnknown']);
  });

  it('takes an IP alone for ICMP (a ping has no port)', () => {
    expect(
      form({ draft: { ...byAddress, protocol: 'icmp' }, addressText: '10.96.0.10' }).request,
    ).toMatchObject({
      to: { kind: 'address', ip: '10.96.0.10', port: 0 },
    });
  });
});

describe('the store and a refused send', () => {
  it('keeps the worker’s problems and the last trace; a draft change clears them', async () => {
    const store = createAppStore({ lab: inline(new LabSession()) });
    await store.getState().start();
    await store.getState().send(store.getState().draft);
    const trace = store.getState().trace;
    await store.getState().send({ ...store.getState().draft, count: 2.5 });
    expect(store.getState().sendProblems.map((p) => p.code)).toEqual(['countRange']);
    expect(store.getState().trace).toBe(trace);
    expect(store.getState().engine).toBe('ready');
    store.getState().setDraft({ count: 2 });
    expect(store.getState().sendProblems).toEqual([]);
  });
});
