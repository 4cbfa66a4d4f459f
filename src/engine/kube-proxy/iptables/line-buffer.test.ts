/**
 * A LineBuffer handed to iptables-restore as pieces must stand for exactly the lines written,
 * every piece ending a line (else the restore would have to join them first).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinPieces, piecesAreLines } from '../../netfilter/restore-pieces';
import { LineBuffer } from './line-buffer';

const word = fc.constantFrom(
  '-A',
  'KUBE-SERVICES',
  '-j',
  'KUBE-SVC-ABCDEFGHIJKLMNOP',
  '-m',
  'comment',
);
const block = fc
  .array(fc.array(word, { minLength: 1, maxLength: 12 }), { maxLength: 6 })
  .map((lines) => lines.map((l) => `${l.join(' ')}\n`).join(''));
const op = fc.oneof(
  fc.record({
    kind: fc.constant('write' as const),
    words: fc.array(word, { minLength: 1, maxLength: 14 }),
  }),
  fc.record({ kind: fc.constant('append' as const), text: block }),
  fc.record({ kind: fc.constant('range' as const), text: block }),
);

describe('LineBuffer.pieces', () => {
  it('are the lines written, each piece ending a line', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 10 }), { maxLength: 4 }), (buffers) => {
        let expected = '*nat\n';
        const parts: (string | LineBuffer)[] = ['*nat\n'];
        for (const ops of buffers) {
          const b = new LineBuffer();
          for (const o of ops) {
            if (o.kind === 'write') {
              b.write(...o.words);
              expected += `${o.words.join(' ')}\n`;
            } else if (o.kind === 'append') {
              b.append({ text: o.text, lines: o.text.split('\n').length - 1 });
              expected += o.text;
            } else {
              b.appendRange(o.text, 0, o.text.length, o.text.split('\n').length - 1);
              expected += o.text;
            }
          }
          parts.push(b, 'COMMIT\n');
          expected += 'COMMIT\n';
        }
        const { pieces } = LineBuffer.pieces(parts);
        expect(joinPieces(pieces)).toBe(expected);
        expect(LineBuffer.join(parts)).toBe(expected);
        expect(piecesAreLines(pieces)).toBe(true);
      }),
      { numRuns: 300, seed: 20_261_203 },
    );
  });
});
