/**
 * Would the two values be the same JSON, keys in any order? (A property whose value is undefined is
 * no property, an undefined array item is null, as JSON.stringify has them.) Compared in place: the
 * audit compares every event the rules produce with the logged one.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  a = asJson(a);
  b = asJson(b);
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((x, i) => sameJson(x, other[i]));
  }
  const defined = (o: object) => Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined);
  const keys = defined(a);
  // A key of `a` must be one of `b`'s defined ones: an undefined value there is no property, not null.
  const otherKeys = new Set(defined(b));
  return keys.length === otherKeys.size && keys.every((k) => otherKeys.has(k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** What JSON.stringify writes null for: undefined (as an item), NaN and the infinities. */
const asJson = (v: unknown): unknown => (v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? null : v);
