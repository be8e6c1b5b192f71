/**
 * The activity versions this browser tab's own saves produced. An open scene form keeps
 * the version it was opened at; it moves on to a newer one only when every version in
 * between came from this tab (its own order save, add, duplicate…), never over someone
 * else's change (features/activities/README.md "Activity editor").
 */
const own = new Map<string, Set<number>>();

export function recordOwnVersion(activityId: string, version: number) {
  let set = own.get(activityId);
  if (!set) own.set(activityId, (set = new Set()));
  set.add(version);
}

/**
 * The version to send with a save made from something shown at version `from`: `from`
 * followed along every version this tab made next (its own order save, add, duplicate…),
 * read at the click. It does not wait for the page's refresh after such a save, and it stops
 * at the first version someone else made, so that change is never saved over.
 */
export function followOwnVersions(activityId: string, from: number): number {
  const set = own.get(activityId);
  let v = from;
  while (set?.has(v + 1)) v++;
  return v;
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs one save of this tab after its earlier saves of the activity have finished, with the version
 * followed over them (followOwnVersions), and records the version it produced. An autosave in flight
 * and a click on another part's save (the order, add, delete) thus never send the same version and
 * refuse each other as if someone else had changed the activity.
 */
export function ownSave<R extends { ok: boolean; data?: unknown }>(
  activityId: string,
  from: number,
  run: (version: number) => Promise<R>,
): Promise<R> {
  const next = (queues.get(activityId) ?? Promise.resolve()).then(async () => {
    const result = await run(followOwnVersions(activityId, from));
    const version = result.ok ? (result.data as { version?: unknown } | undefined)?.version : undefined;
    if (typeof version === "number") recordOwnVersion(activityId, version);
    return result;
  });
  queues.set(
    activityId,
    next.catch(() => undefined),
  );
  return next;
}
