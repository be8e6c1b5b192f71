import { EventEmitter } from "node:events";
import type pg from "pg";
import { errorField, log } from "@/platform/ops/log";
import { COUNTS_DEBOUNCE_MS, LIVE_CHANNEL, livePayload, type LiveMessage, type LiveTopic } from "./channel";
import { createListenConnection, listenLive, pingListener } from "./listen-queries";

/**
 * The listening half of the live bus (platform/notify/bus.ts), framework-free so that
 * the production server's student event streams (features/play/server/stream-endpoint.ts)
 * and the app's route handlers share it: ONE listening connection per process
 * (kept on globalThis, which the server script and every route bundle share),
 * fanning the notifications out in memory. When the connection is lost (the backend
 * ended, a network blip, a failover; one that stops answering is found by checkListener)
 * or cannot be opened, it is opened again after 0.5 s, then 1, 2… up to 10 s between
 * attempts; meanwhile the instance is not ready (GET /readyz answers 503), and once it
 * listens again every subscriber gets a `resync` (it may have missed a notification:
 * each stream reads its state again).
 */
interface Bus {
  emitter: EventEmitter;
  client: pg.Client | null;
  connecting: Promise<void> | null;
  retryMs: number;
  /** the next attempt to open the connection, when one is waited for */
  retry: NodeJS.Timeout | null;
  /** the connection was lost, or could not be opened, and does not listen yet */
  lost: boolean;
  /** takes the current connection as lost (checkListener) */
  drop: ((error: Error) => void) | null;
  /** the current connection's checks, every CHECK_EVERY_MS */
  checks: NodeJS.Timeout | undefined;
  pendingCounts: Map<string, NodeJS.Timeout>;
  /** Notifications received per topic (and, under "*", resyncs): a read started before the latest one may be stale. */
  generations: Map<string, number>;
}

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 10_000;
/** how often the connection is asked for an answer, and how long it has to give one (checkListener) */
const CHECK_EVERY_MS = 15_000;
const CHECK_WAIT_MS = 3_000;

const g = globalThis as unknown as { manabiyaLiveBus?: Bus };
function bus(): Bus {
  g.manabiyaLiveBus ??= {
    emitter: new EventEmitter().setMaxListeners(0),
    client: null,
    connecting: null,
    retryMs: FIRST_RETRY_MS,
    retry: null,
    lost: false,
    drop: null,
    checks: undefined,
    pendingCounts: new Map(),
    generations: new Map(),
  };
  return g.manabiyaLiveBus;
}

/** Closes a connection the bus no longer uses (its late errors ignored). */
function discard(client: pg.Client) {
  client.removeAllListeners();
  client.on("error", () => undefined);
  void client.end().catch(() => undefined);
}

/** Another attempt to listen after the current wait, each wait twice the last (at most LAST_RETRY_MS). */
function retryLater(b: Bus, databaseUrl: string | undefined) {
  b.lost = true;
  if (b.retry) return;
  b.retry = setTimeout(() => {
    b.retry = null;
    connect(b, databaseUrl).catch(() => undefined); // a failure schedules the next attempt
  }, b.retryMs);
  b.retry.unref();
  b.retryMs = Math.min(b.retryMs * 2, LAST_RETRY_MS);
}

function deliver(b: Bus, n: pg.Notification) {
  if (n.channel !== LIVE_CHANNEL || !n.payload) return;
  try {
    const message = JSON.parse(n.payload) as LiveMessage;
    b.generations.set(message.topic, (b.generations.get(message.topic) ?? 0) + 1);
    b.emitter.emit(message.topic, message);
  } catch {
    // not ours
  }
}

async function open(b: Bus, databaseUrl: string | undefined): Promise<void> {
  const client = createListenConnection(databaseUrl);
  const lost = (error?: Error) => {
    if (b.client !== client) return;
    b.client = null;
    b.drop = null;
    clearInterval(b.checks);
    discard(client);
    log().warn(
      { event: "live.listen.lost", ...(error ? errorField(error) : {}) },
      "live: the listening connection was lost; opening it again",
    );
    retryLater(b, databaseUrl);
  };
  client.on("error", lost);
  client.on("end", () => lost());
  client.on("notification", (n) => deliver(b, n));
  try {
    await listenLive(client);
  } catch (error) {
    discard(client);
    retryLater(b, databaseUrl);
    throw error;
  }
  b.client = client;
  b.drop = lost;
  b.retryMs = FIRST_RETRY_MS;
  b.checks = setInterval(() => void checkListener(), CHECK_EVERY_MS);
  b.checks.unref();
  if (b.lost) {
    b.lost = false;
    log().info({ event: "live.listen.back" }, "live: listening again");
    // streams re-read their state: they may have missed a notification while nobody listened
    b.generations.set("*", (b.generations.get("*") ?? 0) + 1);
    b.emitter.emit("*", { kind: "resync" });
  }
}

function connect(b: Bus, databaseUrl: string | undefined): Promise<void> {
  if (b.client) return Promise.resolve();
  b.connecting ??= open(b, databaseUrl).finally(() => {
    b.connecting = null;
  });
  return b.connecting;
}

/**
 * Whether the live bus listens (or has not been needed yet): false while its connection is lost (or could
 * not be opened) and not back, when a notification sent now would reach no stream of this instance
 * (platform/ops/health.ts: not ready). The connection is asked for an answer within CHECK_WAIT_MS (here,
 * and every CHECK_EVERY_MS): one that vanished without a word (a network blip, a failover whose old
 * server never answers again) is taken as lost and opened again.
 */
export async function checkListener(): Promise<boolean> {
  const b = bus();
  const client = b.client;
  if (!client) return !b.lost;
  let timer: NodeJS.Timeout | undefined;
  const answered = await Promise.race([
    pingListener(client),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_WAIT_MS))),
  ]);
  clearTimeout(timer);
  if (!answered && b.client === client)
    b.drop?.(new Error(`the listening connection did not answer within ${CHECK_WAIT_MS} ms`));
  return !b.lost;
}

/** How many notifications (and resyncs) this process has received for `topic`. */
export function topicGeneration(topic: LiveTopic): number {
  const b = bus();
  return (b.generations.get(topic) ?? 0) + (b.generations.get("*") ?? 0) * 1_000_000_000;
}

/**
 * A read keyed by `key` that reads again unless one of the same key is in flight and started after the latest
 * notification `generationOf` counts (topicGeneration of the topic the read follows): reads that start while one is in
 * flight share it, as long as nothing was notified since it started (then it may predate the change, and a new read
 * starts). So readers notified by the same change (a class's streams, a projector beside them) read once.
 */
export function sharedWhileCurrent<A extends unknown[], T>(
  read: (...args: A) => Promise<T>,
  key: (...args: A) => string,
  generationOf: (...args: A) => number,
): (...args: A) => Promise<T> {
  const inflight = new Map<string, { generation: number; promise: Promise<T> }>();
  return (...args) => {
    const k = key(...args);
    const generation = generationOf(...args);
    const current = inflight.get(k);
    if (current && current.generation === generation) return current.promise;
    const entry = { generation, promise: read(...args) };
    inflight.set(k, entry);
    const done = () => {
      if (inflight.get(k) === entry) inflight.delete(k);
    };
    entry.promise.then(done, done);
    return entry.promise;
  };
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
