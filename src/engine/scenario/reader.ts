/**
 * Typed, positioned access to a YAML map, in the way the API server decodes JSON into its Go
 * types: a value of the wrong JSON type is an error (the OpenAPI message `… in body must be of
 * type integer: "string"`), `null` means "unset", and a field the type does not have is kept
 * as a warning, as kubectl's default strict field validation prints it
 * (`Warning: unknown field "spec.foo"`).
 */
import { jsonType } from './yaml-tree';
import type { YEntry, YMap, YNode } from './yaml-tree';
import { typeErrorDetail } from './report';
import type { ObjectReport } from './report';

export interface Field<T> {
  readonly value: T;
  /** Offset of the value in the text. */
  readonly start: number;
}

export interface ListItem {
  readonly node: YNode;
  readonly path: string;
}

export function joinPath(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

/** Maps up to this many entries remember the keys read as bits of a number, not a Set. */
const BIT_KEYS = 30;

export class MapReader {
  /**
   * The keys read (or ignored), for finish(): bit i for entry i in a map of up to BIT_KEYS
   * entries — a scenario holds tens of thousands of small maps, and a Set each was a large
   * share of decoding a large scenario — else a Set of the keys.
   */
  private usedBits = 0;
  private usedKeys: Set<string> | undefined;

  constructor(
    readonly rep: ObjectReport,
    readonly node: YMap,
    /** Field path of this map ('' for the document root). */
    readonly path: string,
    /** Where errors about a missing field of this map point (its key, or the map itself). */
    readonly anchor: number,
  ) {}

  /** Wraps a node that should be a map; reports a type error otherwise. */
  static of(rep: ObjectReport, node: YNode, path: string, anchor: number): MapReader | undefined {
    if (node.kind === 'map') return new MapReader(rep, node, path, anchor);
    if (node.kind === 'scalar' && node.value === null) return undefined;
    typeError(rep, node, path, 'object');
    return undefined;
  }

  at(key: string): string {
    return joinPath(this.path, key);
  }

  entry(key: string): YEntry | undefined {
    const { entries } = this.node;
    if (entries.length > BIT_KEYS) {
      (this.usedKeys ??= new Set()).add(key);
      return entries.find((e) => e.key === key);
    }
    let found: YEntry | undefined;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.key !== key) continue;
      // Every entry with this key counts as read, as a Set of keys would have it.
      this.usedBits |= 1 << i;
      found ??= e;
    }
    return found;
  }

  /** The value node, or undefined when absent or null. */
  raw(key: string): YNode | undefined {
    const e = this.entry(key);
    if (!e || (e.value.kind === 'scalar' && e.value.value === null)) return undefined;
    return e.value;
  }

  /** Offset of a key when present, else this map's anchor. */
  keyStart(key: string): number {
    return this.node.entries.find((e) => e.key === key)?.keyStart ?? this.anchor;
  }

  str(key: string): Field<string> | undefined {
    const n = this.raw(key);
    if (!n) return undefined;
    if (n.kind === 'scalar' && typeof n.value === 'string')
      return { value: n.value, start: n.start };
    typeError(this.rep, n, this.at(key), 'string');
    return undefined;
  }

  int(key: string): Field<number> | undefined {
    const n = this.raw(key);
    if (!n) return undefined;
    if (n.kind === 'scalar' && typeof n.value === 'number' && Number.isInteger(n.value)) {
      return { value: n.value, start: n.start };
    }
    typeError(this.rep, n, this.at(key), 'integer');
    return undefined;
  }

  bool(key: string): Field<boolean> | undefined {
    const n = this.raw(key);
    if (!n) return undefined;
    if (n.kind === 'scalar' && typeof n.value === 'boolean')
      return { value: n.value, start: n.start };
    typeError(this.rep, n, this.at(key), 'boolean');
    return undefined;
  }

  /** IntOrString fields (targetPort): an integer or a string. */
  intOrString(key: string): Field<number | string> | undefined {
    const n = this.raw(key);
    if (!n) return undefined;
    if (n.kind === 'scalar') {
      if (typeof n.value === 'string') return { value: n.value, start: n.start };
      if (typeof n.value === 'number' && Number.isInteger(n.value)) {
        return { value: n.value, start: n.start };
      }
    }
    typeError(this.rep, n, this.at(key), 'integer-or-string');
    return undefined;
  }

  map(key: string): MapReader | undefined {
    const e = this.entry(key);
    if (!e) return undefined;
    return MapReader.of(this.rep, e.value, this.at(key), e.keyStart);
  }

  list(key: string): ListItem[] | undefined {
    const n = this.raw(key);
    if (!n) return undefined;
    if (n.kind !== 'seq') {
      typeError(this.rep, n, this.at(key), 'array');
      return undefined;
    }
    const base = this.at(key);
    return n.items.map((node, i) => ({ node, path: `${base}[${i}]` }));
  }

  strList(key: string): Array<Field<string>> | undefined {
    const items = this.list(key);
    if (!items) return undefined;
    const out: Array<Field<string>> = [];
    for (const { node, path } of items) {
      if (node.kind === 'scalar' && typeof node.value === 'string') {
        out.push({ value: node.value, start: node.start });
      } else typeError(this.rep, node, path, 'string');
    }
    return out;
  }

  /** map[string]string fields (labels, selector, annotations). */
  strMap(key: string): Field<Record<string, string>> | undefined {
    const m = this.map(key);
    if (!m) return undefined;
    const out: Record<string, string> = {};
    for (const e of m.node.entries) {
      const p = `${m.path}.${e.key}`;
      if (e.value.kind === 'scalar' && typeof e.value.value === 'string')
        out[e.key] = e.value.value;
      else if (!(e.value.kind === 'scalar' && e.value.value === null))
        typeError(this.rep, e.value, p, 'string');
      // A null value decodes to "" in a Go map[string]string.
      else out[e.key] = '';
    }
    return { value: out, start: m.node.start };
  }

  /** Marks fields the real type has but the lab does not model, so they raise no warning. */
  ignore(...keys: string[]): void {
    for (const k of keys) this.entry(k);
  }

  /** Warns about every field that was never read (unknown to the type). */
  finish(): void {
    const { entries } = this.node;
    const bits = entries.length <= BIT_KEYS;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const used = bits ? (this.usedBits & (1 << i)) !== 0 : this.usedKeys?.has(e.key) === true;
      if (!used) {
        this.rep.warn(
          e.keyStart,
          `unknown field ${JSON.stringify(this.at(e.key))}`,
          this.at(e.key),
        );
      }
    }
  }
}

export function typeError(rep: ObjectReport, node: YNode, path: string, expected: string): void {
  rep.field(node.start, path, typeErrorDetail(path, expected, jsonType(node)), true);
}

/** Reads each item of a list as a map, reporting items of another type. */
export function listMaps(rep: ObjectReport, items: readonly ListItem[] | undefined): MapReader[] {
  const out: MapReader[] = [];
  for (const { node, path } of items ?? []) {
    const m = MapReader.of(rep, node, path, node.start);
    if (m) out.push(m);
  }
  return out;
}
