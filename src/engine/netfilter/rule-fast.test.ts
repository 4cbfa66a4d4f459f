/**
 * The fast path for kube-proxy's rule lines must agree with the general parser on every line
 * it takes (same value, same key order), and leave to it every line it is unsure of, errors
 * included. The corpus: the restore input of the built-in scenario, the experiments and a
 * scale scenario, every `-A` line quoted in the kube-proxy tests (upstream's expected dumps),
 * hand-picked edge cases, and seeded mutations of all of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../model/runtime';
import { DEFAULT_SCENARIO } from '../scenario';
import { World } from '../sim/world';
import { generateScaleScenario } from '../testing/scale-scenario';
import { resolveGlobal } from './cli-options';
import { fastRuleLine } from './rule-fast';
import { parseArgs } from './rule-parse';
import { tokenizeRestoreLine } from './tokenize';

function general(table: string, line: string): string {
  try {
    return JSON.stringify(parseArgs(tokenizeRestoreLine(line), { restore: true, table }));
  } catch (e) {
    return `error: ${String(e)}`;
  }
}

function restoreRuleLines(scenario: string): [string, string][] {
  const { world } = World.fromScenario(scenario);
  const out: [string, string][] = [];
  for (const node of world.kernels.keys()) {
    let table = '';
    for (const line of world.kernel(node)?.lastSync?.restoreInput.split('\n') ?? []) {
      if (line.startsWith('*')) table = line.slice(1);
      if (line.startsWith('-A ')) out.push([table, line]);
    }
  }
  return out;
}

/** `-A …` lines quoted in the kube-proxy proxier's tests (upstream's expected rule dumps). */
function quotedLines(): string[] {
  const dir = join(__dirname, '../kube-proxy/iptables');
  const out: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.test.ts'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const m of text.matchAll(/^\s*(-A [^\n`]*)$|'(-A [^'\n]*)'|`(-A [^`$\n]*)`/gm)) {
      const line = m[1] ?? m[2] ?? m[3];
      if (line !== undefined) out.push(line);
    }
  }
  return out;
}

const EDGE_CASES = [
  '-A X',
  '-A "" -j Y',
  '-A X -j ""',
  '-A X -j DROP',
  '-A X -m tcp --dport 80 -j Y',
  '-A X -m udp -p tcp --dport 80 -j Y',
  '-A X -p tcp --dport 80 -m tcp -j Y',
  '-A X --dport 80 -p tcp -j Y',
  '-A X -p tcp -m comment --comment "a b" --dport 80 -j Y',
  '-A X -p tcp --dport 80 --sport 81 -j Y',
  '-A X -p tcp --dport 080 -j Y',
  '-A X -p tcp --dport 65536 -j Y',
  '-A X -p tcp --dport 1:2 -j Y',
  '-A X -p sctp -m sctp --dport 5 -j Y',
  '-A X -m sctp --dport 5 -j Y',
  '-A X -p TCP -j Y',
  '-A X -p tcp -p tcp -j Y',
  '-A X -s 10.0.0.1 -s 10.0.0.2 -j Y',
  '-A X -s 10.1.2.3/8 -j Y',
  '-A X -s 10.1.2.3/0 -j Y',
  '-A X -s 10.1.2.3/33 -j Y',
  '-A X -s 10.1.2.3/032 -j Y',
  '-A X -s 10.01.2.3 -j Y',
  '-A X -s 256.1.2.3 -j Y',
  '-A X -s 1.2.3 -j Y',
  '-A X -s 1.2.3.4. -j Y',
  '-A X ! ! -s 1.2.3.4 -j Y',
  '-A X ! -p tcp -j Y',
  '-A X -j Y !',
  '-A X -m comment --comment "" -j Y',
  '-A X -m comment -j Y',
  '-A X -m comment --comment a --comment b -j Y',
  '-A X --comment a -j Y',
  `-A X -m comment --comment "${'c'.repeat(256)}" -j Y`,
  '-A X -m comment --comment "a"b -j Y',
  '-A X -m comment --comment "a\\"b" -j Y',
  '-A X -m comment\t--comment a -j Y',
  '-A X -m statistic --mode random -j Y',
  '-A X -m statistic --probability 0.5 -j Y',
  '-A X -m statistic --probability 0.5 --mode random -j Y',
  '-A X -m statistic --mode nth --every 2 -j Y',
  '-A X -m statistic --mode random --probability 1.5 -j Y',
  '-A X -m statistic --mode random --probability .25e0 -j Y',
  '-A X -m statistic --mode random --mode random --probability 0.5 -j Y',
  '-A X -j DNAT --to-destination 10.0.0.1:80',
  '-A X -p tcp -j DNAT --to-destination 10.0.0.1:80',
  '-A X -p tcp -j DNAT --to-destination 10.0.0.1',
  '-A X -p tcp -j DNAT --to-destination 10.0.0.1-10.0.0.2:80',
  '-A X -p tcp -j DNAT',
  '-A X -j DNAT -p tcp --to-destination 10.0.0.1:80',
  '-A X -p udp -j DNAT --to-destination 10.0.0.1:0',
  '-A X -p udp -j DNAT --to-destination 10.0.0.1:80 --to-destination 10.0.0.1:81',
  '-A X -j REJECT',
  '-A X -j Y -j Z',
  '-A X -j KUBE-SEP-ABCDEFGHIJKLMNOPQRSTUVWX',
  '-A KUBE-SEP-ABCDEFGHIJKLMNOPQRSTUVWX -j Y',
  '-A X -m tcp -m tcp -p tcp -j Y',
  '-A X -m mark --mark 0x1 -j Y',
  '-A X -i eth0 -j Y',
  '-A X --dport=80 -p tcp -j Y',
];

const TOKENS = ['!', '-p', 'tcp', '-m', 'comment', '--dport', '0', '65535', '-j', 'DROP', '""'];

/** Seeded variants: a word dropped, duplicated, swapped with the next, or a token inserted. */
function mutations(lines: readonly string[], seed: number, count: number): string[] {
  const rng = rngFromSeed(seed);
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const line = lines[rng.nextU32() % lines.length] ?? '';
    const w = line.split(' ');
    const i = 2 + (rng.nextU32() % Math.max(1, w.length - 2));
    const kind = rng.nextU32() % 4;
    if (kind === 0) w.splice(i, 1);
    else if (kind === 1) w.splice(i, 0, w[i] ?? '');
    else if (kind === 2) w.splice(i, 2, w[i + 1] ?? '', w[i] ?? '');
    else w.splice(i, 0, TOKENS[rng.nextU32() % TOKENS.length] ?? '');
    out.push(w.join(' '));
  }
  return out;
}

describe('fastRuleLine', () => {
  const corpus: [string, string][] = [
    ...restoreRuleLines(DEFAULT_SCENARIO),
    ...restoreRuleLines(generateScaleScenario(20)),
  ];
  const scenarios = join(__dirname, '../../../scenarios');
  for (const d of readdirSync(scenarios)) {
    corpus.push(...restoreRuleLines(readFileSync(join(scenarios, d, 'scenario.yaml'), 'utf8')));
  }
  const quoted = quotedLines();
  for (const table of ['nat', 'filter']) {
    for (const line of [...quoted, ...EDGE_CASES]) corpus.push([table, line]);
  }

  it('reads no option of its vocabulary as a global one', () => {
    for (const name of ['comment', 'dport', 'sport', 'mode', 'probability', 'to-destination']) {
      expect(resolveGlobal(name)).toBeUndefined();
    }
  });

  it('agrees with the general parser on every line it takes, and takes kube-proxy’s', () => {
    let taken = 0;
    for (const [table, line] of corpus) {
      const fast = fastRuleLine(table, `${line}\n`);
      if (fast === undefined) continue;
      taken++;
      expect(JSON.stringify(fast), line).toBe(general(table, `${line}\n`));
    }
    expect(quoted.length).toBeGreaterThan(100);
    expect(taken).toBeGreaterThan(corpus.length / 2);
  });

  it('takes every rule line of a scale scenario but the few static ones it leaves', () => {
    const lines = restoreRuleLines(generateScaleScenario(20));
    const left = lines.filter(([t, l]) => fastRuleLine(t, l) === undefined).map(([, l]) => l);
    for (const l of left)
      expect(l).toMatch(/-m (mark|conntrack|addrtype|nfacct) |-j (MARK|MASQUERADE)/);
    expect(left.length).toBeLessThan(20);
    expect(lines.length).toBeGreaterThan(600);
  });

  it('agrees on seeded mutations of the corpus (or leaves them to the general parser)', () => {
    const lines = corpus.map(([, l]) => l);
    for (const [seed, table] of [
      [1, 'nat'],
      [2, 'filter'],
    ] as const) {
      for (const line of mutations(lines, seed, 20_000)) {
        const fast = fastRuleLine(table, line);
        if (fast !== undefined) expect(JSON.stringify(fast), line).toBe(general(table, line));
      }
    }
  });
});
