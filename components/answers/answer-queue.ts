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

export type SendOutcome =
  | { kind: "saved"; revision: number; stale: boolean }
  | { kind: "rejected"; reason: string }
  | { kind: "signedOut" }
  | { kind: "retry" };

const STORAGE_KEY = "manabiya.answerQueue.v1";

function read(): QueuedAnswer[] {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? (list as QueuedAnswer[]) : [];
  } catch {
    return [];
  }
}

function write(list: QueuedAnswer[]): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
  } catch {
    // storage full or blocked: the answer is still in memory and being sent
  }
}

export function queued(userId: string, activityId?: string): QueuedAnswer[] {
  return read().filter((q) => q.userId === userId && (!activityId || q.activityId === activityId));
}

export function enqueue(entry: QueuedAnswer): void {
  const others = read().filter((q) => !(q.userId === entry.userId && q.sceneId === entry.sceneId && q.clientRevision <= entry.clientRevision));
  write([...others, entry]);
}

export function dequeue(key: string): void {
  write(read().filter((q) => q.key !== key));
}

export function newKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
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
        activityId: entry.activityId, sceneId: entry.sceneId, answer: entry.answer,
        clientRevision: entry.clientRevision, idempotencyKey: entry.key, mode: entry.mode, respondentId: entry.userId,
      }),
      keepalive: true,
      cache: "no-store",
    });
  } catch {
    return { kind: "retry" };
  }
  if (res.status === 401) return { kind: "signedOut" };
  if (res.status >= 500 || res.status === 429 || res.status === 408) return { kind: "retry" };
  const body = (await res.json().catch(() => null)) as { ok?: boolean; revision?: number; stale?: boolean; reason?: string } | null;
  if (res.ok && body?.ok) return { kind: "saved", revision: body.revision ?? entry.clientRevision, stale: Boolean(body.stale) };
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
