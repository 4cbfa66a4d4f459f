/**
 * textBytes counts UTF-8 bytes by UTF-16 code unit: for any text (lone surrogates included) it
 * gives what counting code points gives, and what Node's UTF-8 encoder writes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Payload } from './types';
import { payloadBytes, textBytes } from './net';

function byCodePoint(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

describe('textBytes', () => {
  it('is the UTF-8 length', () => {
    // ASCII-only texts (most payloads), and one non-ASCII unit anywhere in a long ASCII text,
    // besides arbitrary code units.
    const ascii = fc.string({ unit: 'grapheme-ascii', maxLength: 200 });
    const text = fc.oneof(
      ascii,
      fc
        .tuple(
          ascii,
          fc.constantFrom('\u0080', 'é', '\u07ff', '\u0800', '\ud800', '😀', '\uffff'),
          ascii,
        )
        .map(([a, c, b]) => a + c + b),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\ud800', '\udc00', '\n') }),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(textBytes(t)).toBe(byCodePoint(t));
        expect(textBytes(t)).toBe(Buffer.byteLength(t, 'utf8'));
      }),
      { numRuns: 3000 },
    );
  });

  it('payloadBytes remembers the last two text payloads without mixing them up', () => {
    // Sequences of payload objects, some with equal texts, asked in any order and repeated.
    const payloads = fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '😀') }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(payloads, fc.array(fc.nat(3), { maxLength: 30 }), (texts, order) => {
        const made: Payload[] = texts.map((text) => ({ kind: 'text', text }));
        for (const i of order) {
          const p = made[i % made.length]!;
          expect(payloadBytes(p, 'tcp')).toBe(Buffer.byteLength(p.kind === 'text' ? p.text : ''));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
