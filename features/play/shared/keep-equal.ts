/**
 * The next live state with every part that equals the previous one's (by value) replaced by the previous one's
 * object, and the previous state itself when nothing changed. A stream sends the whole state on every change and
 * JSON.parse makes every part new; with this, a memoised component whose part did not change (a student's cell when
 * another student answered, the results when someone joined) skips its render.
 */
export function keepEqual<T>(previous: unknown, next: T): T {
  if (Object.is(previous, next)) return next;
  if (typeof previous !== "object" || typeof next !== "object" || previous === null || next === null) return next;
  if (Array.isArray(previous) !== Array.isArray(next)) return next;
  return Array.isArray(next)
    ? (keepEqualArray(previous as unknown[], next) as T)
    : (keepEqualObject(previous as Record<string, unknown>, next as Record<string, unknown>) as T);
}

function keepEqualArray(previous: unknown[], next: unknown[]): unknown[] {
  let same = previous.length === next.length;
  const out = next.map((item, i) => {
    const kept = keepEqual(previous[i], item);
    if (kept !== previous[i]) same = false;
    return kept;
  });
  return same ? previous : out;
}

/** A key's value only when the object has it as its own (never what it has from its prototype: `constructor`, `__proto__`). */
const ownValue = (o: Record<string, unknown>, key: string) => (Object.hasOwn(o, key) ? o[key] : undefined);

function keepEqualObject(previous: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(next);
  let same = keys.length === Object.keys(previous).length;
  const out = keys.map((key): [string, unknown] => {
    const kept = keepEqual(ownValue(previous, key), next[key]);
    if (kept !== ownValue(previous, key) || !Object.hasOwn(previous, key)) same = false;
    return [key, kept];
  });
  // own properties whatever their names (an assignment of `__proto__` would set the prototype instead)
  return same ? previous : Object.fromEntries(out);
}
