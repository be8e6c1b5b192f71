import { metrics } from "@/platform/ops/metrics";
import { type Counts, holdSlot } from "@/platform/security/ration";

/**
 * How many event streams this process holds, in all and per user (the caps:
 * features/play/server/stream-slots.ts). One count per process, kept on globalThis: the
 * production server's student streams (features/play/server/stream-endpoint.ts) and every
 * route bundle of Next.js count into it, and into the open-streams gauge. Framework-free.
 */
const shared = globalThis as unknown as { liveStreamSlots?: Counts };
const slots = (): Counts => (shared.liveStreamSlots ??= { total: 0, perUser: new Map() });

/** How long a refused client is asked to wait (Retry-After, seconds). */
export const SLOT_RETRY_AFTER_S = 30;

/** A place for one more stream of `userId` (its release, to call once the stream ends), or the status to refuse it with. */
export function takeSlot(
  userId: string,
  limits: { perUser: number; max: number },
): { ok: true; release: () => void } | { ok: false; status: 429 | 503 } {
  const s = slots();
  const mine = s.perUser.get(userId) ?? 0;
  if (mine >= limits.perUser) return { ok: false, status: 429 };
  if (s.total >= limits.max) return { ok: false, status: 503 };
  metrics().streams.inc();
  return { ok: true, release: holdSlot(s, userId, () => metrics().streams.dec()) };
}
