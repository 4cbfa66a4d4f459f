/**
 * Plain scalar resolution for the fast reader, done by the very tags `yaml` uses for kubectl's
 * YAML 1.1 (yaml-tree.ts: `y`/`yes`/`on` booleans, `0777` octal, no timestamps), so a plain
 * `on` or `0x1F` means the same on both paths. Mirrors `yaml`'s composeScalar and
 * findScalarTagByTest, then the tree's scalarValue/keyText.
 */
import { Document, isScalar } from 'yaml';
import type { ScalarTag } from 'yaml';
import type { YScalarValue } from './yaml-tree';
import { YAML_OPTIONS } from './yaml-tree';

const DOC = new Document(null, YAML_OPTIONS);
const OPTIONS = DOC.options;
/** Tags that may claim a plain scalar, in schema order (the first match wins). */
const DEFAULT_TAGS: readonly ScalarTag[] = DOC.schema.tags.filter(
  (t): t is ScalarTag => t.default === true && t.test instanceof RegExp,
);
/**
 * One pass over all their patterns: most values (names, addresses) match none and are strings
 * without trying each tag in turn. Every pattern is anchored and flag-free (checked here).
 */
const ANY_TAG = DEFAULT_TAGS.every((t) => t.test?.flags === '')
  ? new RegExp(DEFAULT_TAGS.map((t) => `(?:${t.test?.source ?? '(?!)'})`).join('|'))
  : /(?:)/;

/** Returned when `yaml` would report a problem resolving the value: the full reader decides. */
export const UNRESOLVED = Symbol('unresolved');

/** Typed values already resolved (`true`, `80`…): yaml allocates a node for each otherwise. */
const RESOLVED = new Map<string, YScalarValue | typeof UNRESOLVED>();
const MAX_RESOLVED = 10_000;

/** The value `yaml` gives a plain scalar (outside keys), as the tree stores it. */
export function plainValue(text: string): YScalarValue | typeof UNRESOLVED {
  if (!ANY_TAG.test(text)) return text;
  const known = RESOLVED.get(text);
  if (known !== undefined || RESOLVED.has(text)) return known ?? null;
  const value = resolveTyped(text);
  if (RESOLVED.size < MAX_RESOLVED) RESOLVED.set(text, value);
  return value;
}

function resolveTyped(text: string): YScalarValue | typeof UNRESOLVED {
  const tag = DEFAULT_TAGS.find((t) => t.test?.test(text) === true);
  if (!tag) return text;
  let failed = false;
  let res: unknown;
  try {
    res = tag.resolve(
      text,
      () => {
        failed = true;
      },
      OPTIONS,
    );
  } catch {
    return UNRESOLVED;
  }
  if (failed) return UNRESOLVED;
  const v: unknown = isScalar(res) ? res.value : res;
  // scalarValue in yaml-tree.ts: JSON types as they are, bigint as a number.
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number')
    return v;
  if (typeof v === 'bigint') return Number(v);
  return UNRESOLVED;
}

/** JSON object keys are strings: a plain key's value printed as keyText in yaml-tree.ts does. */
export function keyString(v: YScalarValue): string {
  return v === null ? 'null' : String(v);
}
