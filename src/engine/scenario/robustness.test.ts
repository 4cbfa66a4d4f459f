import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoadResult } from './index';
import { DEFAULT_SCENARIO, loadScenario, MAX_SCENARIO_CHARS } from './index';
import { docs, messages, TWO_NODES } from './test-fixtures';

const SVC = 'apiVersion: v1\nkind: Service\nmetadata: {name: ok}\nspec: {ports: [{port: 80}]}';

/**
 * Loads `text`. How fast is measured in `npm run bench`; here vitest's test timeout only
 * guards against a hang (a shared machine's timings make poor assertions).
 */
function timed(text: string): { result: LoadResult } {
  return { result: loadScenario(text) };
}

function wellFormed(r: LoadResult): void {
  expect(Array.isArray(r.cluster.nodes)).toBe(true);
  for (const d of r.diagnostics) {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.col).toBeGreaterThanOrEqual(1);
    expect(d.message.length).toBeGreaterThan(0);
    expect(d.message).not.toMatch(/\n\s+at /); // never a stack trace
  }
}

describe('bad input', () => {
  it('reports YAML syntax errors with their position and still loads the other documents', () => {
    const text = docs('apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n spec: x', SVC);
    const { cluster, diagnostics } = loadScenario(text);
    expect(messages(diagnostics)).toEqual([
      '5:1 yaml: All mapping items must start at the same column',
    ]);
    expect(diagnostics[0]?.doc).toBe(0);
    expect(cluster.services.map((s) => s.meta.name)).toEqual(['ok']);
  });

  it.each<[string, string, string[]]>([
    [
      'an unknown kind',
      'apiVersion: v1\nkind: Foo\nmetadata: {name: x}',
      ['1:1 no matches for kind "Foo" in version "v1"'],
    ],
    [
      'an old apiVersion',
      'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: x}',
      ['1:1 no matches for kind "Deployment" in version "extensions/v1beta1"'],
    ],
    [
      'no apiVersion and kind',
      'metadata: {name: x}',
      ['1:1 error validating data: [apiVersion not set, kind not set]'],
    ],
    [
      'a list document',
      '- a\n- b',
      [
        '1:1 unable to decode document: json: cannot unmarshal array into Go value of type map[string]interface {}',
      ],
    ],
    [
      'a scalar document',
      'hello',
      [
        '1:1 unable to decode document: json: cannot unmarshal string into Go value of type map[string]interface {}',
      ],
    ],
    [
      'metadata of the wrong type',
      'apiVersion: v1\nkind: Service\nmetadata: 5\nspec: {ports: [{port: 80}]}',
      [
        '3:11 The Service "" is invalid: metadata: Invalid value: "integer": metadata in body must be of type object: "integer"',
      ],
    ],
    [
      'duplicate keys',
      'apiVersion: v1\nkind: Service\nkind: Pod',
      ['3:1 yaml: Map keys must be unique'],
    ],
    [
      'an unknown anchor',
      'apiVersion: v1\nkind: Service\nmetadata: *nothing',
      ["3:11 unknown anchor 'nothing' referenced"],
    ],
    [
      'tabs for indentation',
      'apiVersion: v1\nkind: Service\nmetadata:\n\tname: x',
      ['4:1 yaml: Tabs are not allowed as indentation'],
    ],
  ])('rejects %s', (_t, text, expected) => {
    const r = loadScenario(text);
    expect(messages(r.diagnostics).map((m) => m.split('\n')[0])).toEqual(expected);
    wellFormed(r);
  });

  it('skips real kinds the lab does not simulate, with a warning', () => {
    const r = loadScenario(
      docs('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}', SVC),
    );
    expect(messages(r.diagnostics, 'warning')).toEqual([
      '1:1 the lab does not simulate ConfigMap (v1): the document is ignored',
    ]);
    expect(r.cluster.services).toHaveLength(1);
  });

  it('reads a v1 List as its items (kubectl get -o yaml), errors placed inside the item', () => {
    const list = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: a}',
      '  spec: {ports: [{port: 80}]}',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: b}',
      '  spec: {ports: [{port: 99999}]}',
    ].join('\n');
    const r = loadScenario(list);
    expect(r.cluster.services.map((s) => s.meta.name)).toEqual(['a']);
    expect(messages(r.diagnostics)).toEqual([
      '11:25 The Service "b" is invalid: spec.ports[0].port: Invalid value: 99999: must be between 1 and 65535, inclusive',
      // targetPort defaults to the port (SetDefaults_Service), and fails the same check.
      '11:25 The Service "b" is invalid: spec.ports[0].targetPort: Invalid value: 99999: must be between 1 and 65535, inclusive',
    ]);
    // kubectl's decoder on an items field that is no list (runtime.RawExtension slice).
    const bad = loadScenario('apiVersion: v1\nkind: List\nitems: 5\n');
    expect(messages(bad.diagnostics)).toEqual([
      '3:8 unable to decode List: json: cannot unmarshal number into Go struct field List.items of type []runtime.RawExtension',
    ]);
  });

  it('reads YAML as kubectl does (1.1 booleans, merge keys, empty documents)', () => {
    const text = [
      '# only a comment',
      '---',
      'base: &base {apiVersion: v1, kind: Service}',
      '<<: *base',
      'metadata: {name: merged}',
      'spec: {ports: [{port: 80}], publishNotReadyAddresses: yes}',
      '---',
      '',
    ].join('\n');
    const r = loadScenario(text);
    expect(messages(r.diagnostics)).toEqual([]);
    expect(messages(r.diagnostics, 'warning')).toEqual(['3:1 unknown field "base"']);
    expect(r.cluster.services[0]).toMatchObject({
      meta: { name: 'merged' },
      publishNotReadyAddresses: true,
    });
  });

  it('never throws on non-text input', () => {
    const r = loadScenario(undefined as unknown as string);
    expect(messages(r.diagnostics)).toEqual(['1:1 the scenario must be text']);
  });
});

describe('resource limits', () => {
  it('refuses an alias bomb quickly, at the alias that crossed the limit', () => {
    const bomb = [
      'apiVersion: v1',
      'kind: Service',
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
      'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
      'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
    ].join('\n');
    const { result } = timed(docs(bomb, SVC));
    expect(messages(result.diagnostics)).toEqual([
      '5:8 Excessive alias count indicates a resource exhaustion attack',
    ]);
    expect(result.cluster.services.map((s) => s.meta.name)).toEqual(['ok']);
  });

  it('refuses a file over 64 MiB quickly', () => {
    const text = SVC + '\n#' + 'x'.repeat(MAX_SCENARIO_CHARS);
    const { result } = timed(text);
    expect(messages(result.diagnostics)).toEqual([
      `1:1 the scenario is ${text.length} characters long; the lab reads at most ${MAX_SCENARIO_CHARS} (64 MiB)`,
    ]);
    wellFormed(result);
  });

  it('reads a 10 MB file quickly', () => {
    const line = '# padding padding padding padding padding padding padding padding padding\n';
    const text = SVC + '\n' + line.repeat(Math.ceil((10 * 1024 * 1024) / line.length));
    const { result } = timed(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.cluster.services.map((s) => s.meta.name)).toEqual(['ok']);
  });

  it('loads a large file under the cap within a couple of seconds', () => {
    const services = Array.from(
      { length: 2000 },
      (_, i) =>
        `apiVersion: v1\nkind: Service\nmetadata: {name: s${i}}\nspec: {ports: [{port: 80}]}`,
    );
    const text = docs(...services.slice(0, 999));
    const { result } = timed(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.cluster.services).toHaveLength(999);
  });

  it('stops after 100,000 documents', () => {
    const many = Array.from(
      { length: 100_002 },
      (_, i) =>
        `apiVersion: v1\nkind: Service\nmetadata: {name: s${i}}\nspec: {ports: [{port: 80}]}`,
    );
    const { result: r } = timed(docs(...many));
    expect(messages(r.diagnostics)).toEqual([
      '500001:1 too many documents: the lab reads at most 100000; this one and the rest are ignored',
    ]);
    expect(r.cluster.services).toHaveLength(100_000);
  });

  it('refuses deeply nested documents without overflowing the stack', () => {
    const r = loadScenario(
      'apiVersion: v1\nkind: Service\nx: ' + '['.repeat(5000) + ']'.repeat(5000),
    );
    expect(messages(r.diagnostics)).toEqual([
      expect.stringMatching(/^3:\d+ document is nested too deeply \(more than 100 levels\)$/),
    ]);
  });
});

describe('property: loadScenario never throws', () => {
  it('on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        wellFormed(loadScenario(text));
      }),
      { numRuns: 300, seed: 1 },
    );
  });

  it('on YAML-ish text built from scenario fragments', () => {
    const pieces = [
      'apiVersion: v1\n',
      'kind: Service\n',
      'kind: Pod\n',
      'metadata:\n',
      '  name: x\n',
      'spec:\n',
      '  ports:\n',
      '  - port: 80\n',
      '    nodePort: 1\n',
      '---\n',
      '&a ',
      '*a\n',
      '<<: *a\n',
      '  containers: []\n',
      ': \n',
      '- \n',
      '"\n',
      '{[\n',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        wellFormed(loadScenario(parts.join('')));
      }),
      { numRuns: 300, seed: 2 },
    );
  });

  it('on mutations of the default scenario', () => {
    const mutation = fc.record({
      at: fc.nat(DEFAULT_SCENARIO.length),
      cut: fc.nat(40),
      insert: fc.oneof(
        fc.constantFrom(
          '',
          ' ',
          '\n',
          '-',
          ':',
          '"',
          '{',
          '[',
          '*x',
          '&x ',
          '0',
          'None',
          '\t',
          '---\n',
        ),
        fc.string({ maxLength: 5 }),
      ),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        let text = DEFAULT_SCENARIO;
        for (const m of mutations) {
          const at = Math.min(m.at, text.length);
          text = text.slice(0, at) + m.insert + text.slice(at + m.cut);
        }
        wellFormed(loadScenario(text));
      }),
      { numRuns: 200, seed: 3 },
    );
  });

  it('on line-shuffled default scenarios, with previous', () => {
    const lines = DEFAULT_SCENARIO.split('\n');
    const previous = loadScenario(DEFAULT_SCENARIO).cluster;
    fc.assert(
      fc.property(fc.shuffledSubarray(lines, { minLength: 1 }), (subset) => {
        wellFormed(loadScenario(subset.join('\n'), { previous }));
      }),
      { numRuns: 100, seed: 4 },
    );
  });

  it('keeps two-node scenarios deterministic', () => {
    expect(loadScenario(docs(TWO_NODES, SVC))).toEqual(loadScenario(docs(TWO_NODES, SVC)));
  });
});
