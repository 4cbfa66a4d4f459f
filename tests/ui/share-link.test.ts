/**
 * A scenario carried in a link's fragment: every text comes back exactly, the lab's own
 * scenarios make links of a few kB, and a damaged, foreign or oversized link is refused with a
 * reason instead of being half read.
 */
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine';
import { PRESETS } from '../../src/ui/app/presets';
import {
  decodeScenario,
  encodeScenario,
  LinkError,
  linkFor,
  MAX_LINK_CHARS,
  scenarioInHash,
} from '../../src/ui/app/share-link';

const b64url = (bytes: Uint8Array) =>
  Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('scenario links', () => {
  it('carries every preset exactly, each in a link of at most a few kB', async () => {
    for (const text of [DEFAULT_SCENARIO, ...PRESETS.flatMap((p) => p.text ?? [])]) {
      const fragment = await encodeScenario(text);
      expect(fragment).toMatch(/^scenario=1\.[A-Za-z0-9_-]+$/);
      const url = linkFor('http://127.0.0.1:5173/?x=1#old', fragment);
      expect(url.length).toBeLessThan(MAX_LINK_CHARS / 4);
      expect(scenarioInHash(new URL(url).hash)).toBe(fragment);
      expect(await decodeScenario(fragment)).toBe(text);
    }
  });

  it('gives back any text, Chinese and emoji included (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 300 }), async (text) => {
        expect(await decodeScenario(await encodeScenario(text))).toBe(text);
      }),
      { seed: 20261205, numRuns: 200 },
    );
  });

  it('refuses a damaged, foreign or oversized link, saying why', async () => {
    const good = await encodeScenario(DEFAULT_SCENARIO);
    const why = async (fragment: string) => {
      const e = await decodeScenario(fragment).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(LinkError);
      return (e as LinkError).message;
    };
    expect(await why(good.replace('scenario=1.', 'scenario=2.'))).toMatch(/not a link of this/);
    expect(await why(`${good}%20`)).toMatch(/base64url/);
    expect(await why(good.slice(0, good.length / 2))).toMatch(/cut short or damaged/);
    expect(
      await why(`scenario=1.${b64url(deflateRawSync(Buffer.from([0xff, 0xfe, 0x80])))}`),
    ).toMatch(/UTF-8/);
    // 64 MiB of spaces pack into about 64 kB: a link must not unpack into all of it.
    const bomb = b64url(deflateRawSync(Buffer.alloc(64 << 20, 0x20), { level: 9 }));
    expect(await why(`scenario=1.${bomb}`)).toMatch(/more than 4 MiB/);
    expect(scenarioInHash('#other=1')).toBeUndefined();
    expect(scenarioInHash('')).toBeUndefined();
  });
});
