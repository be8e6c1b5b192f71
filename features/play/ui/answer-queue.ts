/**
 * The device's queue of answers not yet stored by the server (docs/product-design.md
 * "Answers": nothing a student writes is lost). Kept in localStorage, so it
 * survives a reload, a crash or a closed tab; one entry per user and scene
 * (a newer revision replaces the older one, which it supersedes anyway).
 */
export interface QueuedAnswer {
  /** Idempotency key: a retry of this save carries the same key. */
  key: string;
  userId: string;
  activityId: string;
  sceneId: string;
  answer: unknown;
  clientRevision: number;
  mode: "self" | "guide";
  queuedAt: number;
}

/**
 * saved: stored, or already stored (a retry); stale: not stored, the server holds a newer revision (another
 * tab's or device's save) and `answer` is the one it holds (null: an answer to an earlier version of the scene).
 */
export type SendOutcome =
  | { kind: "saved"; revision: number }
  | { kind: "stale"; revision: number; answer: unknown }
  | { kind: "rejected"; reason: string }
  | { kind: "signedOut" }
  | { kind: "retry" };

const STORAGE_KEY = "manabiya.answerQueue.v1";
/**
 * The highest revision of each (user, activity, scene) answer the server told
 * this device it stores, so that every page of the device (a page restored by
 * Back from the browser's or the router's cache, a second tab) numbers its next
 * edit above it and above the queued ones: a save made after any navigation is
 * newer than the ones before, and the server stores it. Revisions only, never answers.
 */
const REVISIONS_KEY = "manabiya.answerRevisions.v1";
/** The most (user, scene) revisions kept: the least recently noted go first. */
const MAX_REVISIONS = 2_000;

/**
 * This page's own copy of a key that localStorage refused to keep: storage full, or blocked (a browser that denies a
 * cross-site frame its storage, as in the portal's iframe of an LTI launch). The queue then lives as long as the
 * page: the answers are still sent, only a reload before they are stored loses them.
 */
const inMemory = new Map<string, string>();

function load(key: string): string | null {
  const kept = inMemory.get(key);
  if (kept !== undefined) return kept;
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
    inMemory.delete(key);
  } catch {
    inMemory.set(key, value);
  }
}

function read(): QueuedAnswer[] {
  try {
    const raw = load(STORAGE_KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? (list as QueuedAnswer[]) : [];
  } catch {
    return [];
  }
}

function write(list: QueuedAnswer[]): void {
  store(STORAGE_KEY, JSON.stringify(list));
}

export function queued(userId: string, activityId?: string): QueuedAnswer[] {
  return read().filter((q) => q.userId === userId && (!activityId || q.activityId === activityId));
}

function readRevisions(): Record<string, number> {
  try {
    const raw = load(REVISIONS_KEY);
    const map = raw ? (JSON.parse(raw) as unknown) : {};
    return map && typeof map === "object" && !Array.isArray(map) ? (map as Record<string, number>) : {};
  } catch {
    return {};
  }
}

type AnswerOf = Pick<QueuedAnswer, "userId" | "activityId" | "sceneId">;
const revisionKey = (a: AnswerOf) => `${a.userId}/${a.activityId}/${a.sceneId}`;

/** The highest revision of each of `userId`'s answers to `activityId` this device knows of, by scene. */
export function knownRevisions(userId: string, activityId: string): Record<string, number> {
  const prefix = `${userId}/${activityId}/`;
  return Object.fromEntries(
    Object.entries(readRevisions())
      .filter(([key, revision]) => key.startsWith(prefix) && typeof revision === "number" && Number.isFinite(revision))
      .map(([key, revision]) => [key.slice(prefix.length), revision]),
  );
}

/** Records that the server stores `revision` of the answer, or a newer one (the highest is kept). */
export function noteRevision(answer: AnswerOf, revision: number): void {
  const key = revisionKey(answer);
  const all = readRevisions();
  if ((all[key] ?? 0) >= revision) return;
  delete all[key];
  all[key] = revision; // last in insertion order: the most recently noted
  const keys = Object.keys(all);
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_REVISIONS))) delete all[old];
  store(REVISIONS_KEY, JSON.stringify(all));
}

export function enqueue(entry: QueuedAnswer): void {
  const others = read().filter(
    (q) => !(q.userId === entry.userId && q.sceneId === entry.sceneId && q.clientRevision <= entry.clientRevision),
  );
  write([...others, entry]);
}

export function dequeue(key: string): void {
  write(read().filter((q) => q.key !== key));
}

export function newKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** One attempt to store a queued answer: saved, refused (with why), signed out, or "try again later". */
export async function send(entry: QueuedAnswer): Promise<SendOutcome> {
  let res: Response;
  try {
    res = await fetch("/api/v1/answers", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      // respondentId: on a shared tablet, the server refuses (401) an answer of someone else than the session's user
      body: JSON.stringify({
        activityId: entry.activityId,
        sceneId: entry.sceneId,
        answer: entry.answer,
        clientRevision: entry.clientRevision,
        idempotencyKey: entry.key,
        mode: entry.mode,
        respondentId: entry.userId,
      }),
      keepalive: true,
      cache: "no-store",
    });
  } catch {
    return { kind: "retry" };
  }
  if (res.status === 401) return { kind: "signedOut" };
  if (res.status >= 500 || res.status === 429 || res.status === 408) return { kind: "retry" };
  const body = (await res.json().catch(() => null)) as {
    ok?: boolean;
    revision?: number;
    stale?: boolean;
    answer?: unknown;
    reason?: string;
  } | null;
  if (res.ok && body?.ok) {
    const revision = body.revision ?? entry.clientRevision;
    noteRevision(entry, revision);
    return body.stale ? { kind: "stale", revision, answer: body.answer ?? null } : { kind: "saved", revision };
  }
  // a 2xx that is not the API's answer (a portal in the way): try again
  if (res.ok) return { kind: "retry" };
  // any other 4xx is final for this answer, whoever sent it (a proxy's 413 has no JSON): not retried
  return { kind: "rejected", reason: body?.reason ?? (res.status === 413 ? "tooLong" : "invalidAnswer") };
}

/** The first wait before sending again after a failure (5xx, network), and the most it grows to. */
export const RETRY_FIRST_MS = 2_000;
export const RETRY_MAX_MS = 30_000;

/**
 * How long to wait before the `failures`-th retry (1, 2, …): doubling from
 * RETRY_FIRST_MS up to RETRY_MAX_MS, each wait drawn between half and all of
 * it (`random` in [0, 1)), so that a class whose server came back does not
 * retry in step.
 */
export function retryDelay(failures: number, random: number = Math.random()): number {
  const full = Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, Math.min(failures - 1, 16)), RETRY_MAX_MS);
  return Math.round(full * (0.5 + random / 2));
}
