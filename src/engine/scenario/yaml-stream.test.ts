/**
 * The fast reading (yaml-stream.ts) against the old one, the whole text through `yaml`
 * (yaml-reference.ts): the same documents, trees, offsets, problems and line count, hence
 * the same Cluster and diagnostics, on generated and mutated YAML. Each property's seed is in
 * its name, so a failure replays.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { generateScaleScenario } from '../testing/scale-scenario';
import { DEFAULT_SCENARIO, loadScenario } from './index';
import { TWO_NODES } from './test-fixtures';
import { yamlStream } from './yaml-gen';
import type { Reading } from './yaml-reference';
import { comparable, readFast, reader, readWhole } from './yaml-reference';
import type * as stream from './yaml-stream';

vi.mock('./yaml-stream', async (importOriginal) => {
  const { switched } = await import('./yaml-reference');
  return switched(await importOriginal<typeof stream>());
});

const actual = await vi.importActual<typeof stream>('./yaml-stream');

function fast(text: string, maxDocs?: number): Reading {
  return comparable(readFast(actual.DocumentStream, text, maxDocs));
}

function whole(text: string): Reading {
  return comparable(readWhole(text));
}

/** Both readings, then loadScenario both ways: Cluster, messages, lines and columns. */
function sameBothWays(text: string): void {
  expect(fast(text)).toEqual(whole(text));
  reader.mode = 'full';
  const before = loadScenario(text);
  reader.mode = 'fast';
  const after = loadScenario(text);
  reader.mode = 'check';
  expect(after).toEqual(before);
}

const FRAGMENTS = [
  'apiVersion: v1\n',
  'kind: Service\n',
  'metadata:\n',
  '  name: x\n',
  'spec:\n',
  '  ports:\n',
  '  - port: 80\n',
  '---\n',
  '...\n',
  '&a ',
  '*a\n',
  '<<: *a\n',
  ': \n',
  '- \n',
  '"\n',
  "'\n",
  '{[\n',
  ']\n',
  '\t',
  '# c\n',
  '  ',
  '\r\n',
  'x: "q"\n',
  'y: [a, {b: c}]\n',
];

describe('the fast reading is the whole-text reading', () => {
  it('on generated documents (seed 101)', () => {
    fc.assert(fc.property(yamlStream(false), sameBothWays), { numRuns: 300, seed: 101 });
  });

  it('on generated documents with small edits (seed 102)', () => {
    fc.assert(fc.property(yamlStream(true), sameBothWays), { numRuns: 300, seed: 102 });
  });

  it('on mutations of the default scenario (seed 103)', () => {
    const mutation = fc.record({
      at: fc.nat(DEFAULT_SCENARIO.length),
      cut: fc.nat(20),
      insert: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 })),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        let text = DEFAULT_SCENARIO;
        for (const m of mutations) text = text.slice(0, m.at) + m.insert + text.slice(m.at + m.cut);
        sameBothWays(text);
      }),
      { numRuns: 200, seed: 103 },
    );
  });

  it('on text built from YAML fragments (seed 104)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }), (parts) =>
        sameBothWays(parts.join('')),
      ),
      { numRuns: 400, seed: 104 },
    );
  });

  it('on arbitrary text (seed 105)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), sameBothWays), {
      numRuns: 300,
      seed: 105,
    });
  });

  it('on documents reordered line by line (seed 106)', () => {
    const lines = (DEFAULT_SCENARIO + '---\n' + TWO_NODES).split('\n');
    fc.assert(
      fc.property(fc.shuffledSubarray(lines, { minLength: 1 }), (subset) =>
        sameBothWays(subset.join('\n')),
      ),
      { numRuns: 150, seed: 106 },
    );
  });

  it.each([
    ['the scale scenario', generateScaleScenario(30)],
    ['the scale scenario with CRLF', generateScaleScenario(5).replaceAll('\n', '\r\n')],
    ['a stray ] that yaml blames on the document before', 'a: 1\n---\n]\n- b\n'],
    ['a quote open to the end of the text', 'a: 1\n---\nb: "x\n---\nc: 2\n'],
    ['a quote closed in a later document', "a: 'x\n---\nb: 1\n---\nc: 'y'\n"],
    ['an escaped last quote', 'a: "x\n---\nb: "y\\"\n'],
    ['a line yaml does not count', '- a: []\na:\n - web:\n    - a: 0\n        a:\n'],
    ['directives', '%YAML 1.1\n---\na: 1\n...\n%TAG ! tag:x,1:\n---\nb: !x 2\n'],
    ['a prelude, a BOM and empty documents', '\ufeff# c\n---\n---   # x\n\n---\na: 1\n'],
    ['merge keys and aliases', 'b: &b {x: 1}\n<<: *b\ny: *b\n---\nz: 1\n'],
    ['nesting past the limit', `a: 1\n---\nx: ${'['.repeat(150)}${']'.repeat(150)}\n---\nb: 2\n`],
    [
      'block nesting past the limit',
      Array.from({ length: 120 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' v\n',
    ],
    ['block scalars', 'a: |\n  x\n\n  y\nb: >-\n  folded\n  text\nc: |+\n  kept\n\n'],
    ['repeated and typed keys', '1: a\n"1": b\n---\nyes: 1\ntrue: 2\n---\n.nan: 1\n.nan: 2\n'],
  ])('on %s', (_name, text) => {
    sameBothWays(text);
  });

  it('stops after maxDocs + 1 documents', () => {
    const text = Array.from({ length: 10 }, (_, i) => `a: ${i}`).join('\n---\n');
    expect(fast(text, 3).docs.map((d) => d.root)).toEqual(
      whole(text)
        .docs.slice(0, 4)
        .map((d) => d.root),
    );
  });
});
