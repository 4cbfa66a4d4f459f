/**
 * Cluster objects grouped by namespace/name, and which groups a new version of a list can
 * have changed. Cluster data is immutable, so a position that holds the same object as in
 * the previous list holds the same data: when a few objects were replaced in place (the
 * usual edit: one EndpointSlice rewritten), only the groups of the replaced objects are
 * rebuilt, without looking at the rest of the list.
 */

export interface Group<T> {
  /** Members in list order. */
  readonly items: readonly T[];
  /** Their positions in that list. */
  readonly positions: readonly number[];
}

export const EMPTY_GROUP: Group<never> = { items: [], positions: [] };

export interface Regrouping<T> {
  /** The new group of every key that may have changed (the others keep their group). */
  readonly groups: ReadonlyMap<string, Group<T>>;
  /** Every key was regrouped: a key missing from `groups` has no members any more. */
  readonly complete: boolean;
}

/** Beyond this share of replaced positions (and this count), grouping from scratch is as cheap. */
const IN_PLACE_MAX_SHARE = 1 / 8;
const IN_PLACE_MIN_LIMIT = 2;

/**
 * How `cur` regroups relative to `prev`; undefined when they hold the same objects.
 * `current(key)` is the group last built for `key`, from `prev`.
 */
export function regroup<T>(
  prev: readonly T[],
  cur: readonly T[],
  keyOf: (item: T) => string | undefined,
  current: (key: string) => Group<T> | undefined,
): Regrouping<T> | undefined {
  if (prev === cur) return undefined;
  if (prev.length === cur.length) {
    const limit = Math.max(IN_PLACE_MIN_LIMIT, cur.length * IN_PLACE_MAX_SHARE);
    const replaced: number[] = [];
    for (let i = 0; i < cur.length && replaced.length <= limit; i++) {
      if (prev[i] !== cur[i]) replaced.push(i);
    }
    if (replaced.length === 0) return undefined;
    if (replaced.length <= limit) return regroupInPlace(prev, cur, replaced, keyOf, current);
  }
  return { groups: groupAll(cur, keyOf), complete: true };
}

function regroupInPlace<T>(
  prev: readonly T[],
  cur: readonly T[],
  replaced: readonly number[],
  keyOf: (item: T) => string | undefined,
  current: (key: string) => Group<T> | undefined,
): Regrouping<T> {
  // Every other position holds the same object, so only these keys can have changed.
  const touched = new Set<string>();
  for (const i of replaced) {
    for (const key of [keyOf(prev[i]!), keyOf(cur[i]!)]) if (key !== undefined) touched.add(key);
  }
  const groups = new Map<string, Group<T>>();
  for (const key of touched) {
    const positions = [...new Set([...(current(key)?.positions ?? []), ...replaced])]
      .filter((i) => keyOf(cur[i]!) === key)
      .sort((a, b) => a - b);
    groups.set(key, { items: positions.map((i) => cur[i]!), positions });
  }
  return { groups, complete: false };
}

function groupAll<T>(
  items: readonly T[],
  keyOf: (item: T) => string | undefined,
): Map<string, Group<T>> {
  const groups = new Map<string, { items: T[]; positions: number[] }>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    if (key === undefined) return;
    const group = groups.get(key);
    if (group) {
      group.items.push(item);
      group.positions.push(i);
    } else groups.set(key, { items: [item], positions: [i] });
  });
  return groups;
}
