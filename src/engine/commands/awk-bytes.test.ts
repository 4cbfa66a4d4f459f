/**
 * The byte-string conversions against the platform's own UTF-8 codec (Node's TextEncoder and
 * TextDecoder, the WHATWG Encoding Standard's encoder and decoder with replacement): the same
 * bytes for any text, lone surrogates included, and the same text for any bytes, cut and
 * ill-formed sequences included.
 */
import { describe, expect, it } from 'vitest';
import { fromBytes, toBytes } from './awk-bytes';

const platformBytes = (s: string) =>
  Array.from(new TextEncoder().encode(s), (b) => String.fromCharCode(b)).join('');
const platformText = (bytes: string) =>
  new TextDecoder().decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0)));

/** A small seeded generator (xorshift32): the same cases on every run. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('awk byte strings', () => {
  it('encodes text as TextEncoder does', () => {
    const samples = ['abc', 'é', '服务', '😀', 'a\ud800b', '\udc00', 'x😀é服\u0080\u07ff\uffff'];
    for (const s of samples) expect(toBytes(s)).toBe(platformBytes(s));
    const next = random(7);
    for (let n = 0; n < 500; n++) {
      const s = Array.from({ length: 8 }, () => String.fromCharCode(Math.floor(next() * 0x10000))).join(''); // prettier-ignore
      expect(toBytes(s)).toBe(platformBytes(s));
    }
  });

  it('decodes bytes as TextDecoder does, one U+FFFD per maximal ill-formed subpart', () => {
    const samples = ['\xc3\xa9', '\xc3', '\xe6\x9c', '\xe0\x80\x80', '\xed\xa0\x80', '\xf4\x90\x80\x80', '\xf0\x9f\x98', '\xff\xfe', 'a\xc3b']; // prettier-ignore
    for (const s of samples) expect(fromBytes(s)).toBe(platformText(s));
    const next = random(11);
    const interesting = [0x41, 0x80, 0x9f, 0xa0, 0xbf, 0xc2, 0xc3, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff]; // prettier-ignore
    for (let n = 0; n < 2000; n++) {
      const s = Array.from({ length: 6 }, () => String.fromCharCode(interesting[Math.floor(next() * interesting.length)]!)).join(''); // prettier-ignore
      expect(fromBytes(s)).toBe(platformText(s));
    }
  });
});
