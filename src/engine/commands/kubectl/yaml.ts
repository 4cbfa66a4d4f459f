/**
 * kubectl's `-o yaml` and `-o json` printers for the plain JSON objects the API server returns.
 *
 * YAML: cli-runtime's YAMLPrinter marshals with sigs.k8s.io/yaml (JSON → go-yaml v2), so:
 * - map keys are sorted with go-yaml's keyList.Less (letters compare by code point, a non-letter
 *   sorts before a letter, runs of digits compare as numbers: a2 < a10);
 * - block sequences under a key are not indented (`ports:\n- name: http`), empty ones are `[]`,
 *   empty maps `{}`;
 * - a string that YAML 1.1 would read as something else (bool/null/number/timestamp: "true",
 *   "yes", "on", "1234", "1e3", "2025-01-01") is double-quoted; one that cannot be a plain scalar
 *   (leading indicator, `: `, ` #`, surrounding spaces) is single-quoted; multi-line strings are
 *   literal blocks (`|-` without a final newline, `|` with one, `|+` with more).
 * JSON: encoding/json MarshalIndent with 4 spaces over unstructured maps (keys sorted).
 * Verified against kubectl 1.32's printers in tests/tools/kubectl-printers.test.ts.
 */
export type Json =
  null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

const isLetter = (c: string): boolean => /\p{L}/u.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** go-yaml v2 keyList.Less for string keys. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i] ?? '';
    const bc = br[i] ?? '';
    if (ac === bc) continue;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac < bc;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ac === '0' || bc === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j] ?? ''); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai] ?? ''); ai++) an = an * 10 + Number(ar[ai]);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi] ?? ''); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ac < bc;
  }
  return ar.length < br.length;
}

const sortedKeys = (o: { readonly [key: string]: Json }): string[] =>
  Object.keys(o).sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0));

/** True when YAML 1.1 (go-yaml v2's resolver) would not read the plain text back as a string. */
function resolvesToNonString(s: string): boolean {
  if (s === '' || s === '~' || /^(null|Null|NULL)$/.test(s)) return true;
  if (
    /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/.test(s)
  )
    return true;
  if (/^[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9][0-9_]*)$/.test(s)) return true;
  if (/^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$/.test(s)) return true;
  if (/^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(s)) return true;
  if (/^[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(s)) return true; // base 60
  return /^\d{4}-\d{1,2}-\d{1,2}([Tt ]|$)/.test(s); // timestamps
}

/** Control characters (C0 and DEL), which no plain or single-quoted scalar may hold. */
const hasControl = (s: string): boolean =>
  [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** Whether libyaml's analyzer allows the text as a plain scalar in block context. */
function plainAllowed(s: string): boolean {
  if (/^[\s]|[\s]$/.test(s)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) && !/^[-?:][^\s]/.test(s)) return false;
  if (/^[,[\]{}#&*!|>'"%@`]/.test(s)) return false;
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return false;
  return !hasControl(s);
}

function doubleQuote(s: string): string {
  const escaped = [...s]
    .map((c) => {
      if (c !== '\\' && c !== '"' && !hasControl(c)) return c;
      const map: Record<string, string> = {
        '\\': '\\\\',
        '"': '\\"',
        '\t': '\\t',
        '\n': '\\n',
        '\r': '\\r',
        '\0': '\\0',
      };
      return map[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
    })
    .join('');
  return `"${escaped}"`;
}

function scalar(s: string, indent: string): string {
  if (s.includes('\n')) {
    const trailing = /\n*$/.exec(s)?.[0].length ?? 0;
    const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
    const body = trailing === 0 ? s : s.slice(0, s.length - trailing);
    const lines = body.split('\n').map((l) => (l === '' ? '' : `${indent}  ${l}`));
    const extra = trailing > 1 ? '\n'.repeat(trailing - 1) : '';
    return `|${chomp}\n${lines.join('\n')}${extra}`;
  }
  if (resolvesToNonString(s)) return doubleQuote(s);
  if (!plainAllowed(s)) return hasControl(s) ? doubleQuote(s) : `'${s.replace(/'/g, "''")}'`;
  return s;
}

function key(k: string): string {
  return resolvesToNonString(k)
    ? doubleQuote(k)
    : plainAllowed(k)
      ? k
      : `'${k.replace(/'/g, "''")}'`;
}

function emit(value: Json, indent: string): string {
  // Returns text to put after "key:" (starting with " " for inline values, "\n" for blocks).
  if (value === null) return ' null';
  if (typeof value === 'boolean' || typeof value === 'number') return ` ${String(value)}`;
  if (typeof value === 'string') return ` ${scalar(value, indent)}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return `\n${value.map((v) => `${indent}-${itemBody(v, indent)}`).join('\n')}`;
  }
  const obj = value as { readonly [key: string]: Json };
  const keys = sortedKeys(obj);
  if (keys.length === 0) return ' {}';
  return `\n${keys.map((k) => `${indent}  ${key(k)}:${emit(obj[k] ?? null, `${indent}  `)}`).join('\n')}`;
}

/** A sequence item: maps continue on the dash's line, nested lists too. */
function itemBody(v: Json, indent: string): string {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const obj = v as { readonly [key: string]: Json };
    const keys = sortedKeys(obj);
    if (keys.length === 0) return ' {}';
    return ` ${keys.map((k, i) => `${i === 0 ? '' : `${indent}  `}${key(k)}:${emit(obj[k] ?? null, `${indent}  `)}`).join('\n')}`;
  }
  if (Array.isArray(v) && v.length > 0)
    return ` -${itemBody(v[0] ?? null, `${indent}  `)}${v
      .slice(1)
      .map((x) => `\n${indent}  -${itemBody(x, `${indent}  `)}`)
      .join('')}`;
  return emit(v, indent);
}

/** The YAML kubectl prints for an object (a top-level map), newline-terminated. */
export function toYaml(value: { readonly [key: string]: Json }): string {
  const keys = sortedKeys(value);
  return `${keys.map((k) => `${key(k)}:${emit(value[k] ?? null, '')}`).join('\n')}\n`;
}

/** kubectl `-o json`: keys sorted, 4-space indentation, newline-terminated. */
export function toJson(value: Json): string {
  const sortDeep = (v: Json): Json => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(sortDeep);
    const o = v as { readonly [key: string]: Json };
    const out: Record<string, Json> = {};
    for (const k of Object.keys(o).sort()) out[k] = sortDeep(o[k] ?? null);
    return out;
  };
  return `${JSON.stringify(sortDeep(value), null, 4)}\n`;
}
