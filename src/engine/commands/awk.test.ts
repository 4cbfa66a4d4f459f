// awk programs touching what the lab does not model say so; programs mawk refuses get mawk's
// own message; the rest is compared with the real mawk in tests/kernel/awk-mawk.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runLine } from '../../../tests/helpers/run-line';
import { AwkSyntaxError, Unsupported } from './awk-lex';
import { parseAwk } from './awk-parse';
import { runAwk, STEP_LIMIT } from './awk-run';
import { LAB_NOTES, labNote } from '../model/lab-notes';

const run = (line: string) => runLine('node-1', line);

describe('awk', () => {
  it.each([
    `awk '{print > "out"}'`,
    'awk \'{print | "sort"}\'',
    `awk '{getline x < "f"; print x}'`,
    `awk 'BEGIN {"date" | getline d}'`,
    'awk \'BEGIN {system("ls")}\'',
    "awk 'BEGIN {print rand()}'",
    'awk \'BEGIN {print ENVIRON["HOME"]}\'',
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

  it('stops a program that never ends, as Ctrl-C would, keeping its output', () => {
    const r = run(`awk 'BEGIN {print "start"; while (1) n++}'`);
    expect(r).toEqual({
      stdout: 'start\n',
      stderr: labNote('awk.runaway', { steps: STEP_LIMIT }),
      exitCode: 130,
    });
  });

  it('never throws on programs made of awk tokens, whatever their order (seeded)', () => {
    const token = fc.constantFrom(
      '{', '}', '(', ')', ';', '\n', ',', 'print', 'printf', 'if', 'else', 'next', 'BEGIN',
      'END', 'length', '$', '$1', '$NF', 'NR', 'NF', 'x', 'FS', 'OFS', '"s"', '"%d %s %5.2f"',
      '1', '0', '0.5', '/a/', '/[[:digit:]]+/', '+', '-', '*', '/', '%', '^', '!', '~', '!~',
      '&&', '||', '?', ':', '=', '+=', '++', '--', '<', '>', '==', '"["', 'a[1]', 'a', '[',
      ']', 'in', 'for', 'while', 'do', 'delete', 'break', 'continue', 'exit', 'getline',
      'split($0, a)', 'substr(x, 2)', 'gsub(/a/, "b")', 'function f(p) { return p }', 'f(1)',
    ); // prettier-ignore
    fc.assert(
      fc.property(fc.array(token, { maxLength: 14 }), (tokens) => {
        let program;
        try {
          program = parseAwk(tokens.join(' '));
        } catch (err) {
          // mawk's complaint, or the lab's note: the two errors awk.ts turns into messages.
          expect(err instanceof AwkSyntaxError || err instanceof Unsupported).toBe(true);
          return;
        }
        try {
          runAwk(program, [{ file: '-', lines: ['a 1 2.5', '', 'b x'] }], ' ');
        } catch (err) {
          // A run-time regex the lab does not read is the one error awk.ts turns into its note.
          expect(err).toBeInstanceOf(Unsupported);
        }
      }),
      { numRuns: 3000, seed: 20261205 },
    );
  });
});
