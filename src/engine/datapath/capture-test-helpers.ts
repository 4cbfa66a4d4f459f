/**
 * Test-only: a comparison stricter than toStrictEqual for rebuilt headers: the same keys in the
 * same order at every level, the same prototypes, and primitives equal by Object.is (-0 is not
 * 0, NaN is NaN).
 */

/** '' when `a` and `b` are the same that way, else where they first differ. */
export function sameDeep(a: unknown, b: unknown, path = '$'): string {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null)
    return Object.is(a, b) ? '' : `${path}: ${String(a)} vs ${String(b)}`;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: prototypes differ`;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.join() !== kb.join()) return `${path}: keys ${ka.join()} vs ${kb.join()}`;
  for (const k of ka) {
    const d = sameDeep(
      (a as Record<PropertyKey, unknown>)[k],
      (b as Record<PropertyKey, unknown>)[k],
      `${path}.${String(k)}`,
    );
    if (d !== '') return d;
  }
  return '';
}
