/**
 * Rationing of the expensive calls (docs/security.md "Resource limits"): automatic furigana, image
 * uploads (read, decoded, re-encoded), sign-in sheet PDFs, activity-file imports and slides brought in from a PDF. Each kind
 * may run at most `perUser` calls of one person at a time and `total` in the whole process; a
 * call over either is refused at once (429 with Retry-After), before its body is read, so one
 * teacher firing dozens of calls at once costs the server almost nothing and leaves room for
 * everyone else. One count per process, kept on globalThis so that every route bundle of
 * Next.js and the production server share it. Framework-free.
 */
export type RationKind = "furigana" | "image" | "pdf" | "import" | "slides";

export interface RationLimits {
  perUser: number;
  total: number;
  /** How long a refused client is asked to wait (Retry-After, seconds). */
  retryAfterS: number;
}

export const RATIONS: Record<RationKind, RationLimits> = {
  // the analyser runs on the server's main thread (tens of ms per call)
  furigana: { perUser: 2, total: 8, retryAfterS: 2 },
  // the decoding itself waits its turn per school (features/scenes/server/image-process.ts)
  image: { perUser: 2, total: 24, retryAfterS: 5 },
  // the renderer process has its own queue (features/people/server/sheets-render.ts)
  pdf: { perUser: 1, total: 6, retryAfterS: 30 },
  import: { perUser: 1, total: 4, retryAfterS: 10 },
  // a PDF's pages are drawn one PDF at a time per process (features/scenes/server/slides-render.ts)
  slides: { perUser: 1, total: 3, retryAfterS: 30 },
};

/** Calls in progress, in all and per user. */
export interface Counts {
  total: number;
  perUser: Map<string, number>;
}

/** Counts one more call of `userId` in `counts`; its release (once only; `onRelease` then). */
export function holdSlot(counts: Counts, userId: string, onRelease?: () => void): () => void {
  counts.total++;
  counts.perUser.set(userId, (counts.perUser.get(userId) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    counts.total--;
    const left = (counts.perUser.get(userId) ?? 1) - 1;
    if (left > 0) counts.perUser.set(userId, left);
    else counts.perUser.delete(userId);
    onRelease?.();
  };
}
const shared = globalThis as unknown as { rations?: Map<RationKind, Counts> };
const countsOf = (kind: RationKind): Counts => {
  const all = (shared.rations ??= new Map());
  let counts = all.get(kind);
  if (!counts) all.set(kind, (counts = { total: 0, perUser: new Map() }));
  return counts;
};

export type Ration = { ok: true; release: () => void } | { ok: false; retryAfterS: number };

/** A place for one more call of `kind` by `userId` (release it once the work is done), or the wait to ask for. */
export function takeRation(kind: RationKind, userId: string, limits: RationLimits = RATIONS[kind]): Ration {
  const counts = countsOf(kind);
  const mine = counts.perUser.get(userId) ?? 0;
  if (mine >= limits.perUser || counts.total >= limits.total) return { ok: false, retryAfterS: limits.retryAfterS };
  return { ok: true, release: holdSlot(counts, userId) };
}

/** `work` within a ration of `kind` for `userId`, or the refusal when none is free. */
export async function withRation<T>(
  kind: RationKind,
  userId: string,
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; retryAfterS: number }> {
  const ration = takeRation(kind, userId);
  if (!ration.ok) return ration;
  try {
    return { ok: true, value: await work() };
  } finally {
    ration.release();
  }
}

/** The refusal a route answers: 429 `{ ok: false, code: "RATE_LIMITED" }` with Retry-After, never cached. */
export function rationRefusal(retryAfterS: number, extra: Record<string, unknown> = {}): Response {
  return Response.json(
    { ok: false, code: "RATE_LIMITED", ...extra },
    { status: 429, headers: { "Retry-After": String(retryAfterS), "Cache-Control": "no-store" } },
  );
}
