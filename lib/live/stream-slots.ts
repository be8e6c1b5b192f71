import "server-only";
import { env } from "@/lib/env";
import { problem } from "@/lib/http";
import { metrics } from "@/lib/ops/metrics";

/**
 * How many event streams this process holds, in all and per user: a user may have
 * LIVE_STREAMS_PER_USER open (a student with two tabs, a teacher with the guide screen and
 * a projector), the server LIVE_STREAMS_MAX (below its connection cap, so that streams never
 * take every socket). Over a cap the stream is refused with a Retry-After: the browser's
 * EventSource gives up on a non-200 answer and the page falls back to polling the JSON
 * state (components/live/use-live-state.ts).
 */
const RETRY_AFTER_S = 30;

interface Slots {
  total: number;
  perUser: Map<string, number>;
}
// one count per process, whichever route bundle asks
const shared = globalThis as unknown as { liveStreamSlots?: Slots };
const slots = (): Slots => (shared.liveStreamSlots ??= { total: 0, perUser: new Map() });

/** A place for one more stream of `userId` (its release, to call once the stream ends), or the refusal to send. */
export function takeStreamSlot(userId: string): { ok: true; release: () => void } | { ok: false; refusal: Response } {
  const s = slots();
  const { LIVE_STREAMS_PER_USER, LIVE_STREAMS_MAX } = env();
  const mine = s.perUser.get(userId) ?? 0;
  if (mine >= LIVE_STREAMS_PER_USER) return { ok: false, refusal: refuse(429) };
  if (s.total >= LIVE_STREAMS_MAX) return { ok: false, refusal: refuse(503) };
  s.total++;
  s.perUser.set(userId, mine + 1);
  metrics().streams.inc();
  let released = false;
  return {
    ok: true,
    release: () => {
      if (released) return;
      released = true;
      s.total--;
      metrics().streams.dec();
      const left = (s.perUser.get(userId) ?? 1) - 1;
      if (left > 0) s.perUser.set(userId, left);
      else s.perUser.delete(userId);
    },
  };
}

function refuse(status: 429 | 503): Response {
  const res = problem(status, "RATE_LIMITED");
  res.headers.set("Retry-After", String(RETRY_AFTER_S));
  return res;
}
