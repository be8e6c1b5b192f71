/**
 * The activity versions this browser tab's own saves produced. An open scene form keeps
 * the version it was opened at; it moves on to a newer one only when every version in
 * between came from this tab (its own order save, add, duplicate…), never over someone
 * else's change (docs/architecture.md "Activity editor").
 */
const own = new Map<string, Set<number>>();

export function recordOwnVersion(activityId: string, version: number) {
  let set = own.get(activityId);
  if (!set) own.set(activityId, (set = new Set()));
  set.add(version);
}

/** `to` when every version after `from` up to `to` is this tab's own; else `from`. */
export function followOwnVersions(activityId: string, from: number, to: number): number {
  const set = own.get(activityId);
  for (let v = from + 1; v <= to; v++) if (!set?.has(v)) return from;
  return Math.max(from, to);
}
