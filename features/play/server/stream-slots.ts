import "server-only";
import { env } from "@/platform/env";
import { problem } from "@/platform/http";
import { SLOT_RETRY_AFTER_S, takeSlot } from "./slot-count";

/**
 * How many event streams this process holds, in all and per user: a user may have
 * LIVE_STREAMS_PER_USER open (a student with two tabs, a teacher with the guide screen and
 * a projector), the server LIVE_STREAMS_MAX (below its connection cap, so that streams never
 * take every socket). Over a cap the stream is refused with a Retry-After: the browser's
 * EventSource gives up on a non-200 answer and the page falls back to polling the JSON
 * state (features/play/ui/use-live-state.ts). The count: features/play/server/slot-count.ts.
 */
export function takeStreamSlot(userId: string): { ok: true; release: () => void } | { ok: false; refusal: Response } {
  const { LIVE_STREAMS_PER_USER, LIVE_STREAMS_MAX } = env();
  const slot = takeSlot(userId, { perUser: LIVE_STREAMS_PER_USER, max: LIVE_STREAMS_MAX });
  if (slot.ok) return slot;
  const res = problem(slot.status, "RATE_LIMITED");
  res.headers.set("Retry-After", String(SLOT_RETRY_AFTER_S));
  return { ok: false, refusal: res };
}
