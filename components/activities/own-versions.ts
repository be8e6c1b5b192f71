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
 * One of this tab's changes to the activity (a scene save, an add, an order save…), run after
 * the ones before it have come back: a click made while a save is on its way would otherwise
 * send the version from before that save and be refused as someone else's change. The version
 * is followed (followOwnVersions) from `from` when the change starts, and a version the server
 * gives back is recorded before the next change starts.
 */
export function ownWrite<T extends { ok: boolean; data?: unknown }>(activityId: string, from: () => number, write: (version: number) => Promise<T>): Promise<T> {
  const run = async () => {
    const result = await write(followOwnVersions(activityId, from()));
    const version = result.ok ? (result.data as { version?: unknown } | undefined)?.version : undefined;
    if (typeof version === "number") recordOwnVersion(activityId, version);
    return result;
  };
  const next = (queues.get(activityId) ?? Promise.resolve()).then(run, run);
  queues.set(activityId, next.catch(() => undefined));
  return next;
}
