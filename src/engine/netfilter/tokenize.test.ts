import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenizeRestoreLine } from './tokenize';

/** add_param_to_argv() character by character: the reference the sliced version must match. */
function reference(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let quoteOpen = false;
  let escaped = false;
  for (const ch of line) {
    if (quoteOpen) {
      if (escaped) {
        word += ch;
        escaped = false;
        continue;
      }
      if (ch === '\\') {
        escaped = true;
        continue;
      }
      if (ch !== '"') {
        word += ch;
        continue;
      }
      quoteOpen = false;
    } else if (ch === '"') {
      quoteOpen = true;
      continue;
    }
    if (ch !== '"' && ch !== ' ' && ch !== '\t' && ch !== '\n') {
      word += ch;
      continue;
    }
    if (ch !== '"' && word === '') continue;
    out.push(word);
    word = '';
  }
  if (word !== '') out.push(word);
  return out;
}

describe('tokenizeRestoreLine', () => {
  it('splits like the character-by-character reference', () => {
    const piece = fc.constantFrom('a', 'bc', ' ', '\t', '\n', '"', '\\', "'", 'é', '😀', '-j');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const line = pieces.join('');
        expect(tokenizeRestoreLine(line)).toEqual(reference(line));
      }),
      { seed: 1, numRuns: 5000 },
    );
  });
});
