import "server-only";
import { EventEmitter } from "node:events";
import pg from "pg";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { COUNTS_DEBOUNCE_MS, LIVE_CHANNEL, type LiveKind, type LiveMessage, type LiveTopic, livePayload } from "./channel";
import { errorField, log } from "@/lib/ops/log";

/**
 * Live updates across app instances (docs/product-design.md "Live (guide) sessions"):
 * writers NOTIFY on one PostgreSQL channel with a tiny payload (a topic and a
 * kind, never the data); each instance holds ONE listening connection and
 * fans the notifications out in memory to its open streams, which then read
 * the current state from the database. A notification sent inside a
 * transaction is delivered when it commits, so nobody reads a state that is
 * not there yet.
 */
export { LIVE_CHANNEL, type LiveKind, type LiveMessage, type LiveTopic } from "./channel";

interface Bus {
  emitter: EventEmitter;
  client: pg.Client | null;
  connecting: Promise<void> | null;
  retryMs: number;
  pendingCounts: Map<string, NodeJS.Timeout>;
  /** Notifications received per topic (and, under "*", resyncs): a read started before the latest one may be stale. */
  generations: Map<string, number>;
}

const g = globalThis as unknown as { manabiyaLiveBus?: Bus };
function bus(): Bus {
  g.manabiyaLiveBus ??= { emitter: new EventEmitter().setMaxListeners(0), client: null, connecting: null, retryMs: 500, pendingCounts: new Map(), generations: new Map() };
  return g.manabiyaLiveBus;
}

function connect(b: Bus): Promise<void> {
  if (b.client) return Promise.resolve();
  b.connecting ??= (async () => {
    const client = new pg.Client({ connectionString: env().DATABASE_URL, application_name: "manabiya-live" });
    const lost = () => {
      if (b.client !== client) return;
      b.client = null;
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      // streams re-read the state when the listener is back (they may have missed a notification)
      const retry = () => {
        connect(b).then(
          () => {
            b.generations.set("*", (b.generations.get("*") ?? 0) + 1);
            b.emitter.emit("*", { kind: "resync" });
          },
          () => setTimeout(retry, (b.retryMs = Math.min(b.retryMs * 2, 10_000))),
        );
      };
      setTimeout(retry, b.retryMs);
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (n) => {
      if (n.channel !== LIVE_CHANNEL || !n.payload) return;
      try {
        const message = JSON.parse(n.payload) as LiveMessage;
        b.generations.set(message.topic, (b.generations.get(message.topic) ?? 0) + 1);
        b.emitter.emit(message.topic, message);
      } catch {
        // not ours
      }
    });
    await client.connect();
    await client.query(`LISTEN ${LIVE_CHANNEL}`);
    b.client = client;
    b.retryMs = 500;
  })().finally(() => {
    b.connecting = null;
  });
  return b.connecting;
}

/** How many notifications (and resyncs) this instance has received for `topic`. */
export function topicGeneration(topic: LiveTopic): number {
  const b = bus();
  return (b.generations.get(topic) ?? 0) + (b.generations.get("*") ?? 0) * 1_000_000_000;
}

/** Calls `onMessage` for every message on `topic` (and a `resync` after the listener reconnects); returns the unsubscribe. */
export async function subscribe(topic: LiveTopic, onMessage: (m: LiveMessage | { kind: "resync" }) => void): Promise<() => void> {
  const b = bus();
  await connect(b);
  b.emitter.on(topic, onMessage);
  b.emitter.on("*", onMessage);
  return () => {
    b.emitter.off(topic, onMessage);
    b.emitter.off("*", onMessage);
  };
}

/** NOTIFY every instance (inside `tx` when given: delivered on commit). */
export async function publish(topic: LiveTopic, kind: LiveKind, tx?: Prisma.TransactionClient): Promise<void> {
  const payload = livePayload(topic, kind);
  await (tx ?? db()).$executeRaw`select pg_notify(${LIVE_CHANNEL}, ${payload})`;
}

/**
 * Answer or presence counts changed: at most one notification per activity every 300 ms
 * from this instance, however many students answer at once.
 */
export function countsChanged(activityId: string): void {
  const b = bus();
  if (b.pendingCounts.has(activityId)) return;
  b.pendingCounts.set(
    activityId,
    setTimeout(() => {
      b.pendingCounts.delete(activityId);
      publish(`activity:${activityId}`, "counts").catch((error: unknown) => log().warn({ event: "live.notify.failed", ...errorField(error) }, "live: counts notify failed"));
    }, COUNTS_DEBOUNCE_MS),
  );
}
