/**
 * The bench's judgements of what the app answered, kept pure so that they
 * are unit-tested (tools/tests/bench-report.test.ts): acknowledged answers
 * stored exactly once, and throttled sign-ins told apart from other failures.
 */

export interface SaveKey {
  userId: string;
  sceneId: string;
  /** the save's idempotency key */
  key: string;
}

/**
 * Every acknowledged save against the rows stored for the same (respondent,
 * scene): missing (no row), duplicates (more than one row) and otherKey (one
 * row, but of another save than the one acknowledged).
 */
export function checkExactlyOnce(acknowledged: SaveKey[], stored: SaveKey[]) {
  const rows = new Map<string, string[]>();
  for (const s of stored) {
    const id = `${s.userId}/${s.sceneId}`;
    rows.set(id, [...(rows.get(id) ?? []), s.key]);
  }
  let missing = 0;
  let duplicates = 0;
  let otherKey = 0;
  for (const a of acknowledged) {
    const keys = rows.get(`${a.userId}/${a.sceneId}`) ?? [];
    if (keys.length === 0) missing++;
    else if (keys.length > 1) duplicates++;
    else if (keys[0] !== a.key) otherKey++;
  }
  return {
    acknowledged: acknowledged.length,
    missing,
    duplicates,
    otherKey,
    ok: missing + duplicates + otherKey === 0,
  };
}

/**
 * A throttled sign-in, however the app says it: HTTP 429, a server action's
 * result with the "tooManyRequests" error, or next-auth's redirect to the
 * sign-in page with that code. Not the word alone: every page carries the
 * message catalogue, whose sign-in errors include it.
 */
export function isThrottled(reply: {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}): boolean {
  if (reply.status === 429) return true;
  const location = reply.headers.location;
  if (typeof location === "string" && location.includes("tooManyRequests")) return true;
  return /"error":"tooManyRequests"/.test(reply.body);
}

/** Sign-in outcomes (null: signed in; "throttled"; any other failure's name) counted. */
export function tallyOutcomes(outcomes: (string | null)[]) {
  const failures: Record<string, number> = {};
  for (const o of outcomes) if (o) failures[o] = (failures[o] ?? 0) + 1;
  const throttled = failures.throttled ?? 0;
  const notOk = outcomes.filter(Boolean).length;
  return { ok: outcomes.length - notOk, throttled, failed: notOk - throttled, failures };
}

/**
 * Each grid update's time in the browser (tools/bench/grid-render.ts): from a state event that
 * changed the grid arriving (`arrivals`) to the first time the grid's DOM was committed and laid out
 * after it (`laidOut`). An arrival with nothing laid out after it is `unrendered`.
 */
export function pairUpdates(arrivals: number[], laidOut: number[]) {
  const done = [...laidOut].sort((a, b) => a - b);
  const times: number[] = [];
  const windows: [number, number][] = [];
  let unrendered = 0;
  for (const a of arrivals) {
    const d = done.find((t) => t >= a);
    if (d === undefined) unrendered++;
    else {
      times.push(d - a);
      windows.push([a, d]);
    }
  }
  return { times, windows, unrendered };
}

/**
 * Frames (requestAnimationFrame timestamps, sorted) that ran longer than `frameMs` × 1.5, i.e. at
 * least one frame dropped, ending within an update's window (its arrival to `frameMs` × 2 after it
 * was laid out: the frame that paints it); and the long animation frames (start, duration) that
 * overlap a window.
 */
export function framesDuringUpdates(
  windows: [number, number][],
  frames: number[],
  longFrames: [number, number][],
  frameMs = 1000 / 60,
) {
  const inWindow = (t0: number, t1: number) => windows.some(([a, d]) => t1 > a && t0 <= d + frameMs * 2);
  let counted = 0;
  let dropped = 0;
  for (let i = 1; i < frames.length; i++) {
    if (!inWindow(frames[i - 1]!, frames[i]!)) continue;
    counted++;
    if (frames[i]! - frames[i - 1]! > frameMs * 1.5) dropped++;
  }
  const long = longFrames.filter(([start, duration]) => inWindow(start, start + duration)).length;
  return { counted, dropped, long };
}
