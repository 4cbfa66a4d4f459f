// awk programs the lab does not run say so (their mawk semantics — arrays, functions, output
// redirection, range patterns, field assignment — are not modelled); what it runs is compared
// with mawk in tests/kernel/text-tools.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runLine } from '../../../tests/helpers/run-line';
import { parseAwk } from './awk-parse';
import { runAwk } from './awk-run';
import { LAB_NOTES } from '../model/lab-notes';

const run = (line: string) => runLine('node-1', line);

describe('awk', () => {
  it.each([
    "awk 'NR==2, NR==3'",
    "awk -v OFS=: '{$1 = $1; print}'",
    `awk '{print > "out"}'`,
    'awk \'{print | "sort"}\'',
    "awk '{a[$1]++} END {for (k in a) print k}'",
    "awk '{print substr($1, 2)}'",
    "awk '{getline; print}'",
    'awk \'BEGIN {CONVFMT = "%.2g"}\'',
    "awk '{print $1'",
    'awk',
    `awk '$1 ~ "[" {print}'`,
    "awk -F '[[:nosuch:]]' '{print $1}'",
  ])('says %s is not modelled, and runs none of it', (line) => {
    expect(run(`kubectl get pods | ${line}`)).toEqual({
      stdout: '',
      stderr: `${LAB_NOTES['awk.program']}\n`,
      exitCode: 2,
    });
  });

  it("counts a Service's endpoints in iptables-save's output", () => {
    const r = run(
      `iptables-save -t nat | awk '$1 == "-A" && $2 ~ /^KUBE-SEP-/ && /DNAT/ {n++} END {print n}'`,
    );
    // The built-in scenario: kubernetes 1, web 3, web-nodeport 3, kube-dns 3 ports × 2.
    expect(r).toEqual({ stdout: '13\n', stderr: '', exitCode: 0 });
  });

  it('never throws on programs made of awk tokens, whatever their order (seeded)', () => {
    const token = fc.constantFrom(
      '{', '}', '(', ')', ';', '\n', ',', 'print', 'printf', 'if', 'else', 'next', 'BEGIN',
      'END', 'length', '$', '$1', '$NF', 'NR', 'NF', 'x', 'FS', 'OFS', '"s"', '"%d %s %5.2f"',
      '1', '0', '0.5', '/a/', '/[[:digit:]]+/', '+', '-', '*', '/', '%', '^', '!', '~', '!~',
      '&&', '||', '?', ':', '=', '+=', '++', '--', '<', '>', '==', '"["',
    ); // prettier-ignore
    fc.assert(
      fc.property(fc.array(token, { maxLength: 14 }), (tokens) => {
        const items = parseAwk(tokens.join(' '));
        if (items === undefined) return;
        try {
          runAwk(items, [{ file: '-', lines: ['a 1 2.5', '', 'b x'] }], ' ');
        } catch (err) {
          // A run-time regex the lab does not read is the one error awk.ts turns into its note.
          expect((err as Error).constructor.name).toBe('Unsupported');
        }
      }),
      { numRuns: 3000, seed: 20261205 },
    );
  });
});
