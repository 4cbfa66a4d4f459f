/**
 * YAML text → a small positioned tree per document, the shape `kubectl` hands the API server
 * after its YAML → JSON step (sigs.k8s.io/yaml on top of go-yaml v2):
 *
 * - YAML 1.1 scalars, as go-yaml v2 reads them: `yes`/`no`/`on`/`off` are booleans (the
 *   "Norway problem" real manifests hit), `0777` is octal. Timestamps and `1:20` sexagesimal
 *   numbers stay strings, as they do for kubectl.
 * - Merge keys (`<<: *base`) are expanded; aliases are resolved, under a budget, so an alias
 *   "billion laughs" bomb is refused instead of expanded.
 * - Non-string keys become strings (JSON object keys are strings).
 *
 * Every node keeps its offset in the text so diagnostics can point at it.
 *
 * This is the full reader; yaml-stream.ts reads most documents of a scenario with a faster
 * one that gives the same trees, and hands the rest to parseSlow here.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { Document, LineCounter, Node as YamlNode, Tags } from 'yaml';

export interface YMap {
  readonly kind: 'map';
  readonly start: number;
  readonly entries: readonly YEntry[];
}
export interface YEntry {
  readonly key: string;
  readonly keyStart: number;
  readonly value: YNode;
}
export interface YSeq {
  readonly kind: 'seq';
  readonly start: number;
  readonly items: readonly YNode[];
}
export type YScalarValue = string | number | boolean | null;
export interface YScalar {
  readonly kind: 'scalar';
  readonly start: number;
  readonly value: YScalarValue;
}
export type YNode = YMap | YSeq | YScalar;

export interface ParsedDoc {
  /** 0-based index of the document in the file. */
  readonly index: number;
  /** Offset of the document's first character (for errors about the whole document). */
  readonly start: number;
  /** undefined when the document is empty or failed to parse. */
  readonly root: YNode | undefined;
}

export interface ParseProblem {
  readonly doc: number;
  readonly offset: number;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

export interface ParsedStream {
  readonly docs: readonly ParsedDoc[];
  readonly problems: readonly ParseProblem[];
  readonly lines: LineCounter;
}

/** Alias dereferences allowed per document (yaml's own default is 100 as well). */
export const MAX_ALIAS_COUNT = 100;
/** Nodes produced per document once aliases are expanded. */
export const MAX_NODES_PER_DOC = 200_000;
/** Nesting depth; the API server's JSON decoder refuses deeper objects too. */
export const MAX_DEPTH = 100;
/** The limit errors, as the Converter and the fast reader (yaml-fast-line.ts) word them. */
export const TOO_LARGE = `document is too large: more than ${MAX_NODES_PER_DOC} values`;
export const TOO_DEEP = `document is nested too deeply (more than ${MAX_DEPTH} levels)`;

/** Syntax errors reported per document (the first ones are the useful ones). */
export const MAX_SYNTAX_ERRORS_PER_DOC = 5;

class LimitError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

// go-yaml v2 does not turn plain dates or `1:20` into times/base-60 numbers for kubectl, so the
// lab drops those YAML 1.1 tags and keeps such values as strings.
function kubectlTags(tags: Tags): Tags {
  return tags.filter((t) => {
    const tag = typeof t === 'object' ? t : undefined;
    if (!tag) return true;
    return tag.tag !== 'tag:yaml.org,2002:timestamp' && tag.format !== 'TIME';
  });
}

/** The `yaml` options of kubectl's reading; the fast reader resolves scalars with the same tags. */
export const YAML_OPTIONS = {
  version: '1.1',
  prettyErrors: false,
  uniqueKeys: true,
  customTags: kubectlTags,
} as const;

/** Documents read by `yaml` from `text`, a slice that starts at offset `base` of the scenario. */
export interface SlowParse {
  /** Documents, with `index` counted from 0 within the slice. */
  readonly docs: readonly ParsedDoc[];
  readonly problems: readonly ParseProblem[];
  /** Syntax errors reported per document (the first few): a document with any has no tree. */
  readonly syntaxErrors: readonly number[];
  /** The parser itself failed: the whole scenario is unreadable (problems says why). */
  readonly fatal: boolean;
}

/**
 * The full YAML reader: every document of `text` through `yaml`'s parser. All offsets are
 * shifted by `base`, so a slice of the scenario reports positions in the whole text.
 */
export function parseSlow(text: string, base = 0, lines?: LineCounter): SlowParse {
  const problems: ParseProblem[] = [];
  const docs: ParsedDoc[] = [];
  const syntaxErrors: number[] = [];
  let list: Document.Parsed[];
  // yaml makes an Error per problem; nobody reads their stack traces, which cost more than the
  // parse itself on a file full of errors.
  const errors = Error as unknown as { stackTraceLimit: number | undefined };
  const traces = errors.stackTraceLimit;
  try {
    errors.stackTraceLimit = 0;
    const parsed = parseAllDocuments(
      text,
      lines ? { ...YAML_OPTIONS, lineCounter: lines } : YAML_OPTIONS,
    );
    list = Array.isArray(parsed) ? parsed : [];
  } catch (err) {
    const message = err instanceof RangeError ? TOO_DEEP : 'yaml: the text could not be parsed';
    const problems = [{ doc: 0, offset: 0, message, severity: 'error' as const }];
    return { docs: [], problems, syntaxErrors: [], fatal: true };
  } finally {
    errors.stackTraceLimit = traces;
  }
  list.forEach((doc, index) => {
    const start = (doc.contents?.range?.[0] ?? doc.range[0]) + base;
    syntaxErrors.push(Math.min(doc.errors.length, MAX_SYNTAX_ERRORS_PER_DOC));
    doc.errors.slice(0, MAX_SYNTAX_ERRORS_PER_DOC).forEach((e) => {
      // The parser recurses per nesting level; its stack overflow surfaces as a document error.
      const message = /call stack/i.test(e.message) ? TOO_DEEP : `yaml: ${e.message}`;
      problems.push({ doc: index, offset: e.pos[0] + base, message, severity: 'error' });
    });
    if (doc.errors.length > 0) {
      docs.push({ index, start, root: undefined });
      return;
    }
    for (const w of doc.warnings) {
      problems.push({
        doc: index,
        offset: w.pos[0] + base,
        message: `yaml: ${w.message}`,
        severity: 'warning',
      });
    }
    try {
      const root = new Converter(doc, base).convert(doc.contents, 0, start);
      const empty = root.kind === 'scalar' && root.value === null;
      docs.push({ index, start, root: empty ? undefined : root });
    } catch (err) {
      if (!(err instanceof LimitError)) throw err;
      problems.push({ doc: index, offset: err.offset, message: err.message, severity: 'error' });
      docs.push({ index, start, root: undefined });
    }
  });
  return { docs, problems, syntaxErrors, fatal: false };
}

class Converter {
  private aliases = 0;
  private nodes = 0;
  constructor(
    private readonly doc: Document.Parsed,
    /** Offset of the parsed slice in the scenario text. */
    private readonly base: number,
  ) {}

  convert(node: YamlNode | null | undefined, depth: number, fallback: number): YNode {
    if (++this.nodes > MAX_NODES_PER_DOC) throw new LimitError(TOO_LARGE, fallback);
    if (depth > MAX_DEPTH) throw new LimitError(TOO_DEEP, fallback);
    if (node === null || node === undefined)
      return { kind: 'scalar', start: fallback, value: null };
    const start = node.range ? node.range[0] + this.base : fallback;
    if (isAlias(node)) {
      if (++this.aliases > MAX_ALIAS_COUNT) {
        throw new LimitError('Excessive alias count indicates a resource exhaustion attack', start);
      }
      const target = node.resolve(this.doc);
      if (!target) throw new LimitError(`unknown anchor '${node.source}' referenced`, start);
      return this.convert(target, depth + 1, start);
    }
    if (isMap(node)) return this.convertMap(node.items, depth, start);
    if (isSeq(node)) {
      const items = node.items.map((item) =>
        this.convert(item as YamlNode | null, depth + 1, start),
      );
      return { kind: 'seq', start, items };
    }
    if (isScalar(node))
      return { kind: 'scalar', start, value: scalarValue(node.value, node.source) };
    return { kind: 'scalar', start, value: null };
  }

  private convertMap(pairs: readonly unknown[], depth: number, start: number): YMap {
    const entries: YEntry[] = [];
    const merged: YEntry[] = [];
    for (const pair of pairs) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as YamlNode | null;
      const keyStart = keyNode?.range ? keyNode.range[0] + this.base : start;
      const valueNode = pair.value as YamlNode | null;
      if (isScalar(keyNode) && typeof keyNode.value === 'symbol') {
        // `<<: *base` or `<<: [*a, *b]`: explicit keys win over merged ones, earlier sources
        // over later ones (YAML merge key semantics, as go-yaml implements them).
        const source = this.convert(valueNode, depth + 1, keyStart);
        const sources = source.kind === 'seq' ? source.items : [source];
        for (const s of sources) {
          if (s.kind !== 'map')
            throw new LimitError(
              'map merge requires map or sequence of maps as the value',
              keyStart,
            );
          merged.push(...s.entries);
        }
        continue;
      }
      const key = keyText(keyNode, keyStart);
      entries.push({ key, keyStart, value: this.convert(valueNode, depth + 1, keyStart) });
    }
    for (const m of merged) {
      if (!entries.some((e) => e.key === m.key)) entries.push(m);
    }
    return { kind: 'map', start, entries };
  }
}

function keyText(node: YamlNode | null, offset: number): string {
  if (node === null) return 'null';
  if (isScalar(node)) {
    const v = node.value;
    if (v === null) return 'null';
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
    return node.source ?? String(v);
  }
  throw new LimitError('a map key must be a string, number or boolean', offset);
}

function scalarValue(value: unknown, source: string | undefined): YScalarValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  // !!binary and other exotic tags: keep the text the user wrote.
  return source ?? String(value);
}

/** A node's JSON type, in OpenAPI words (`integer`, `string`, `object`…), for type errors. */
export function jsonType(node: YNode): string {
  if (node.kind === 'map') return 'object';
  if (node.kind === 'seq') return 'array';
  const v = node.value;
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Plain JSON of a node with sorted keys: a stable fingerprint (pod-template-hash input). */
export function canonicalJSON(node: YNode | undefined): string {
  if (!node) return 'null';
  if (node.kind === 'scalar') return JSON.stringify(node.value);
  if (node.kind === 'seq') return `[${node.items.map(canonicalJSON).join(',')}]`;
  const entries = [...node.entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return `{${entries.map((e) => `${JSON.stringify(e.key)}:${canonicalJSON(e.value)}`).join(',')}}`;
}
