import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { type LiveKind, type LiveMessage, type LiveTopic, livePayload } from "./channel";
import { notifyLive } from "./commands";
import { debounceCounts, subscribeVia } from "./listen";
import { errorField, log } from "@/platform/ops/log";

/**
 * Live updates across app instances (docs/product-design.md "Live (guide) sessions"):
 * writers NOTIFY on one PostgreSQL channel with a tiny payload (a topic and a
 * kind, never the data); each instance holds ONE listening connection
 * (platform/notify/listen.ts) and fans the notifications out in memory to its open
 * streams, which then read the current state from the database. A
 * notification sent inside a transaction is delivered when it commits, so
 * nobody reads a state that is not there yet.
 */
export { LIVE_CHANNEL, type LiveKind, type LiveMessage, type LiveTopic } from "./channel";
export { topicGeneration } from "./listen";

/** Calls `onMessage` for every message on `topic` (and a `resync` after the listener reconnects); returns the unsubscribe. */
export function subscribe(
  topic: LiveTopic,
  onMessage: (m: LiveMessage | { kind: "resync" }) => void,
): Promise<() => void> {
  return subscribeVia(undefined, topic, onMessage);
}

/** NOTIFY every instance (inside `tx` when given: delivered on commit). */
export async function publish(topic: LiveTopic, kind: LiveKind, tx?: Prisma.TransactionClient): Promise<void> {
  const payload = livePayload(topic, kind);
  await notifyLive(payload, tx);
}

/**
 * Answer or presence counts changed: at most one notification per activity every 300 ms
 * from this instance, however many students answer at once.
 */
export function countsChanged(activityId: string): void {
  debounceCounts(
    activityId,
    () => publish(`activity:${activityId}`, "counts"),
    (error) => log().warn({ event: "live.notify.failed", ...errorField(error) }, "live: counts notify failed"),
  );
}
