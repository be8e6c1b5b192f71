import { EventEmitter } from "node:events";
import type pg from "pg";
import { errorField, log } from "@/platform/ops/log";
import { COUNTS_DEBOUNCE_MS, LIVE_CHANNEL, livePayload, type LiveMessage, type LiveTopic } from "./channel";
import { createListenConnection, listenLive } from "./listen-queries";

/**
 * The listening half of the live bus (platform/notify/bus.ts), framework-free so that
 * the production server's student event streams (features/play/server/stream-endpoint.ts)
 * and the app's route handlers share it: ONE listening connection per process
 * (kept on globalThis, which the server script and every route bundle share),
 * fanning the notifications out in memory. After the connection is lost and
 * back, every subscriber gets a `resync` (it may have missed a notification).
 */
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
  g.manabiyaLiveBus ??= {
    emitter: new EventEmitter().setMaxListeners(0),
    client: null,
    connecting: null,
    retryMs: 500,
    pendingCounts: new Map(),
    generations: new Map(),
  };
  return g.manabiyaLiveBus;
}

function connect(b: Bus, databaseUrl: string | undefined): Promise<void> {
  if (b.client) return Promise.resolve();
  b.connecting ??= (async () => {
    const client = createListenConnection(databaseUrl);
    const lost = () => {
      if (b.client !== client) return;
      b.client = null;
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      // streams re-read the state when the listener is back (they may have missed a notification)
      const retry = () => {
        connect(b, databaseUrl).then(
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
    await listenLive(client);
    b.client = client;
    b.retryMs = 500;
  })().finally(() => {
    b.connecting = null;
  });
  return b.connecting;
}

/** How many notifications (and resyncs) this process has received for `topic`. */
export function topicGeneration(topic: LiveTopic): number {
  const b = bus();
  return (b.generations.get(topic) ?? 0) + (b.generations.get("*") ?? 0) * 1_000_000_000;
}

export type Subscribe = (
  topic: LiveTopic,
  onMessage: (m: LiveMessage | { kind: "resync" }) => void,
) => Promise<() => void>;

/**
 * Calls `onMessage` for every message on `topic` (and a `resync` after the listener reconnects); returns the
 * unsubscribe. The listening connection is to the app's database unless `databaseUrl` names another (a test's).
 */
export async function subscribeVia(
  databaseUrl: string | undefined,
  ...[topic, onMessage]: Parameters<Subscribe>
): Promise<() => void> {
  const b = bus();
  await connect(b, databaseUrl);
  b.emitter.on(topic, onMessage);
  b.emitter.on("*", onMessage);
  return () => {
    b.emitter.off(topic, onMessage);
    b.emitter.off("*", onMessage);
  };
}

/**
 * Answer or presence counts changed: `notify` runs at most once per activity every
 * COUNTS_DEBOUNCE_MS in this process, however many students answer or come and go at once.
 */
export function debounceCounts(
  activityId: string,
  notify: () => Promise<void>,
  onError: (error: unknown) => void,
): void {
  const b = bus();
  if (b.pendingCounts.has(activityId)) return;
  b.pendingCounts.set(
    activityId,
    setTimeout(() => {
      b.pendingCounts.delete(activityId);
      notify().catch(onError);
    }, COUNTS_DEBOUNCE_MS),
  );
}

/**
 * `countsChanged` for a production-server endpoint with a pool of its own (the answer saves, the
 * student streams): debounceCounts, the "counts" notification sent through `pool`, a failure logged.
 */
export function countsNotifierVia(pool: { query: (text: string, values: unknown[]) => Promise<unknown> }) {
  return (activityId: string) =>
    debounceCounts(
      activityId,
      async () =>
        void (await pool.query("select pg_notify($1, $2)", [
          LIVE_CHANNEL,
          livePayload(`activity:${activityId}`, "counts"),
        ])),
      (error) => log().warn({ event: "live.notify.failed", ...errorField(error) }, "live: counts notify failed"),
    );
}
