// Expected text: what kubectl 1.32's YAMLPrinter printed for the same values (via
// `kubectl label --local -f cm.yaml x- -o yaml` on this ConfigMap's data); tests/tools/
// kubectl-printers.test.ts re-checks whole objects against the real binary when it is installed.
import { describe, expect, it } from 'vitest';
import { goYamlKeyLess, toJson, toYaml } from './yaml';

describe('toYaml', () => {
  it('quotes like go-yaml v2', () => {
    const data = {
      b: '1',
      c: '*',
      d: 'yes',
      e: 'a: b',
      f: '- x',
      g: ' lead',
      h: '1.5',
      i: '0x10',
      j: '2025-01-01',
      k: 'on',
      l: 'null',
      m: '~',
      o: 'a #b',
      p: '10.96.0.1',
      q: '1e3',
      t: 'https://1.2.3.4:6443',
      u: 'sha256:abc',
      v: 'Cluster',
      w: '%x',
      x: '!x',
      z: '[x]',
      aa: 'x,y',
      ab: 'x?',
      ac: '?x',
      ad: '-x',
      ae: '0s',
      af: '1_000',
      ag: '+1',
      ah: '.5',
      ai: 'a\tb',
    };
    expect(toYaml({ data })).toBe(
      [
        'data:',
        '  aa: x,y',
        '  ab: x?',
        '  ac: ?x',
        '  ad: -x',
        '  ae: 0s',
        '  af: "1_000"',
        '  ag: "+1"',
        '  ah: ".5"',
        '  ai: "a\\tb"',
        '  b: "1"',
        "  c: '*'",
        '  d: "yes"',
        "  e: 'a: b'",
        "  f: '- x'",
        "  g: ' lead'",
        '  h: "1.5"',
        '  i: "0x10"',
        '  j: "2025-01-01"',
        '  k: "on"',
        '  l: "null"',
        '  m: "~"',
        "  o: 'a #b'",
        '  p: 10.96.0.1',
        '  q: "1e3"',
        '  t: https://1.2.3.4:6443',
        '  u: sha256:abc',
        '  v: Cluster',
        "  w: '%x'",
        "  x: '!x'",
        "  z: '[x]'",
        '',
      ].join('\n'),
    );
  });

  it('uses literal blocks for multi-line strings', () => {
    expect(toYaml({ a: 'line1\nline2', r: 'x\n', s: 'a\n\n', t: 'z' })).toBe(
      'a: |-\n  line1\n  line2\nr: |\n  x\ns: |+\n  a\n\nt: z\n',
    );
  });

  it('lays out sequences and empty collections like go-yaml v2', () => {
    expect(
      toYaml({
        spec: {
          ports: [{ port: 80, name: 'http' }],
          ips: ['10.96.0.1'],
          sel: {},
          none: [],
          nil: null,
        },
      }),
    ).toBe(
      'spec:\n  ips:\n  - 10.96.0.1\n  nil: null\n  none: []\n  ports:\n  - name: http\n    port: 80\n  sel: {}\n',
    );
  });

  it("sorts keys with go-yaml's natural order", () => {
    const keys = ['a10', 'A', '_z', 'a2', 'a', '1a', 'z.y/w', 'a1'];
    expect(
      [...keys].sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0)),
    ).toEqual(['_z', '1a', 'A', 'a', 'a1', 'a2', 'a10', 'z.y/w']);
  });
});

describe('toJson', () => {
  it('indents by 4 and sorts keys', () => {
    expect(toJson({ kind: 'Service', apiVersion: 'v1', spec: { ports: [] } })).toBe(
      '{\n    "apiVersion": "v1",\n    "kind": "Service",\n    "spec": {\n        "ports": []\n    }\n}\n',
    );
  });
});
