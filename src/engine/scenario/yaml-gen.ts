/**
 * Test-only generators of YAML text (used by yaml-stream.test.ts): random documents in and
 * around the shape the fast reader takes, so both readers meet the same tricky spots.
 */
import fc from 'fast-check';

/** Plain scalars, including every YAML 1.1 type trap and near misses. */
const PLAIN = [
  'web',
  'svc-1',
  'node-2',
  '10.244.0.5',
  '10.96.0.0/12',
  '80',
  '8080',
  '0777',
  '0o17',
  '0b101',
  '0x1F',
  '1_000',
  '1:20',
  '-1',
  '+5',
  '1e3',
  '1.5',
  '.5',
  '1.',
  '-.inf',
  '.NaN',
  '.nan',
  'yes',
  'Yes',
  'NO',
  'on',
  'Off',
  'y',
  'n',
  'true',
  'False',
  '~',
  'null',
  'Null',
  '2001-12-14',
  '--foo',
  '-x',
  'a b',
  'a:b',
  'http://x/y',
  'a#b',
  '<<',
  '<a',
  'a,b',
  'x[0]',
  'é',
  '...',
  '=',
  'IPv4',
  'TCP',
];
const KEYS = ['a', 'b', 'name', 'port', 'kind', '80', 'yes', 'true', 'null', '~', 'k.io/x', 'a b'];
const QUOTED = ['"x"', "'y'", "'it''s'", '"a\\"b"', '"10.0.0.1"', '""', "''", '"#"', "'a: b'"];
const FLOW_ATOMS = ['a', '1', 'yes', '"q"', "'s'", 'b c', '~', '-1', '.inf'];

const pick = <T>(list: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...list);
const plain = fc.oneof(pick(PLAIN), fc.stringMatching(/^[a-z0-9][a-z0-9 .:/#-]{0,6}$/));
const scalar = fc.oneof({ weight: 4, arbitrary: plain }, { weight: 2, arbitrary: pick(QUOTED) });
const key = fc.oneof({ weight: 5, arbitrary: pick(KEYS) }, { weight: 1, arbitrary: scalar });

/** Block scalars: \u0001 stands for the lines' indentation, \u0002 for an empty line. */
const blockScalar = fc
  .tuple(
    pick(['|', '|-', '>', '>-', '|+', '|2', '| # c', '>+', '|\u0001']),
    fc.array(
      pick(['x', 'y z', '  more', '\u0002', '# not a comment', 'a: b', '  ', '- x', 'end ']),
      {
        minLength: 1,
        maxLength: 4,
      },
    ),
  )
  .map(([header, lines]) =>
    [header, ...lines.map((l) => (l === '\u0002' ? l : `\u0001${l}`))].join('\n'),
  );

/** A value as written after `key: ` or `- ` on a line indented by `indent`. */
function placed(value: string, indent: string): string {
  return value.replaceAll('\u0001', `${indent}  `).replaceAll('\u0002', '');
}

const flow: fc.Arbitrary<string> = fc.letrec<{ flow: string }>((tie) => ({
  flow: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .array(fc.oneof(pick(FLOW_ATOMS), tie('flow')), { maxLength: 3 })
      .map((a) => `[${a.join(', ')}]`),
    fc
      .array(fc.tuple(pick(FLOW_ATOMS), fc.oneof(pick(FLOW_ATOMS), tie('flow'))), { maxLength: 3 })
      .map((a) => `{${a.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
    pick(['[]', '{}', '{ }', '[a,b]', '[a ,b]', '[a,]', '{a}', '{a: }', '[a: 1]', '["x":1]']),
  ),
})).flow;

/** Block YAML lines at some indentation, with comments and blank lines thrown in. */
const block: fc.Arbitrary<(indent: string) => string[]> = fc.letrec<{
  node: (indent: string) => string[];
}>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .tuple(
        fc.array(fc.tuple(key, fc.oneof(scalar, flow, tie('node'), fc.constant(''), blockScalar)), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.constantFrom(' ', '  ', '    '),
      )
      .map(
        ([entries, step]) =>
          (indent: string) =>
            entries.flatMap(([k, v]) =>
              typeof v === 'string'
                ? [`${indent}${k}:${v === '' ? '' : ' ' + placed(v, indent)}`]
                : [`${indent}${k}:`, ...v(indent + step)],
            ),
      ),
    fc
      .tuple(
        fc.array(fc.oneof(scalar, flow, tie('node'), fc.constant(''), blockScalar), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.constantFrom('', '  '),
      )
      .map(
        ([items, step]) =>
          (indent: string) =>
            items.flatMap((v) => {
              if (typeof v === 'string')
                return [`${indent}-${v === '' ? '' : ' ' + placed(v, indent)}`];
              const inner = v(indent + step + '  ');
              // `- key: v` compact form for maps, `-` then a nested block otherwise.
              const first = inner[0] ?? '';
              return first.trimStart().startsWith('-')
                ? [`${indent}-`, ...inner]
                : [`${indent}- ${first.trimStart()}`, ...inner.slice(1)];
            }),
      ),
  ),
})).node;

const DECOR = ['# c', '', '   # indented', '  ', 'x # not a comment line'];
const EDITS = ['', ' ', ':', '- ', '\n', '#', '"', '\t', '  ', '\r', "'", ']', '---\n'];

/** A document: block lines, comments and blank lines, and (when `edits`) small changes. */
export function yamlDocument(edits: boolean): fc.Arbitrary<string> {
  return fc
    .tuple(
      block,
      fc.array(fc.tuple(fc.nat(40), pick(edits ? DECOR : DECOR.slice(0, 4))), { maxLength: 3 }),
      fc.array(fc.tuple(fc.nat(400), fc.nat(3), pick(EDITS)), { maxLength: edits ? 2 : 0 }),
    )
    .map(([node, decor, changes]) => {
      const lines = node('');
      for (const [at, d] of decor) lines.splice(at % (lines.length + 1), 0, d);
      let text = lines.join('\n');
      for (const [at, cut, ins] of changes) {
        const i = at % (text.length + 1);
        text = text.slice(0, i) + ins + text.slice(i + cut);
      }
      return text;
    });
}

const SEPARATORS = [
  '\n---\n',
  '\n--- # doc\n',
  '\n---\n# c\n',
  '\n...\n---\n',
  '\n---\n---\n',
  '\n',
];

/** Several documents, with the separators and preludes real files have. */
export function yamlStream(edits: boolean): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(yamlDocument(edits), { minLength: 1, maxLength: 4 }),
      fc.array(pick(edits ? SEPARATORS : SEPARATORS.slice(0, 3)), { minLength: 4, maxLength: 4 }),
      pick(['', '# head\n', '---\n', '# c\n---\n', '%YAML 1.1\n---\n', '\ufeff']),
      pick(['\n', '', '\n---\n', '\n# tail']),
      fc.boolean(),
    )
    .map(([docs, seps, head, tail, crlf]) => {
      const text = head + docs.map((d, i) => (i ? (seps[i] ?? '\n---\n') : '') + d).join('') + tail;
      return crlf ? text.replaceAll('\n', '\r\n') : text;
    });
}
