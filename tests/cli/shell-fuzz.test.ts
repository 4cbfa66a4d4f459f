/**
 * Bad input never crashes the lab: random command lines built from the lab shell's syntax
 * (loops, expansions with ${…} operators, quotes, redirections) and the commands that parse the
 * most (kubectl exec and jsonpath, curl -w, awk, sort, cut) run without an exception, each with
 * some answer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLabRegistry } from '../../src/engine/commands';
import { runCommandLine } from '../../src/engine/commands/shell-run';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { hostView } from '../../src/engine/sim/host-view';
import { World } from '../../src/engine/sim/world';

// prettier-ignore
const WORDS = [
  'for', 'i', 'in', 'do', 'done', 'while', ';', '|', '&&', '||', '$(', ')', '`', '$i', '${i}', '"', "'",
  '{1..3}', 'a{1..2}', 'echo', 'seq', '3', 'sort', '-n', '-k2', 'uniq', '-c', 'cut', '-d', ' ', '-f1', 'awk',
  "'{print $1}'", "'{x}'", 'kubectl', 'exec', '-it', 'client', '--', 'sh', '-c', 'get', 'pods', 'svc', '-o',
  "jsonpath='{.items[*]}'", "jsonpath={range", '{end}', "jsonpath='{..x}'", 'x=1', '$?', '$1', '\\', '>', '<',
  '2>&1', '$((', 'curl', '-s', '-w', "'%{http_code}%{'", '-o', '/dev/null', '10.96.1.1', '-I', '-i', '#',
  '${', '}', '${i:-', '${i:-a b}', '${#i}', '${i:1:-1}', '${i//[0-9]/&}', '${i%%.*}', '${i^^}', '${!i}', '${i?e}',
];

describe('the lab shell on random lines', () => {
  it('answers every line without an exception', () => {
    const { world } = World.fromScenario(DEFAULT_SCENARIO);
    const registry = createLabRegistry();
    const view = hostView(
      world,
      { kind: 'pod', namespace: 'default', name: 'client' },
      () => undefined,
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 20 }), (words) => {
        const r = runCommandLine(registry, { world: view }, words.join(' '));
        expect(typeof r.exitCode).toBe('number');
      }),
      { numRuns: 5000, seed: 20261205 },
    );
  });
});
