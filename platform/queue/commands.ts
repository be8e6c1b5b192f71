import PgBoss from "pg-boss";
import { createPool } from "@/platform/db/pools";
import { errorField, log } from "@/platform/ops/log";
import { onShutdown } from "@/platform/shutdown";

/**
 * The app's durable job queue: pg-boss 10 in the app's own database (schema `pgboss`, created or migrated by
 * pg-boss when the first process starts it), reached through a small pool of the app's (platform/db/pools.ts: the
 * same address, timeouts and pooler rules as every other connection). Jobs survive a restart; a failed one is tried
 * again with doubling waits (pg-boss's retryBackoff) until its queue's retry limit, then stays as `failed`.
 *
 * One queue per process, shared through globalThis by the production server (server/main.ts) and Next.js's bundles
 * (each has its own copy of this module), started on first use and stopped at shutdown (platform/shutdown.ts).
 * A feature names its queues and works them (features/lti/server/xapi-queue.ts); the answer save only publishes.
 */
export type JobQueue = PgBoss;
export type Job<T> = PgBoss.JobWithMetadata<T>;

export const QUEUE_SCHEMA = "pgboss";

const shared = globalThis as unknown as {
  manabiyaQueue?: Promise<PgBoss>;
  manabiyaWanted?: Map<string, Set<string>>;
};
const wanted = (): Map<string, Set<string>> => (shared.manabiyaWanted ??= new Map());

/**
 * Whether this process publishes `event` at all (publishLater): each feature (`by`) that works the event's jobs turns
 * it on while they are of use to it (an academy has an LRS; a launch named a line item), so that a path publishing it
 * costs nothing otherwise; it is published while one of them wants it.
 */
export function setEventWanted(event: string, on: boolean, by = "default"): void {
  const wanting = wanted().get(event) ?? new Set<string>();
  if (on) wanting.add(by);
  else wanting.delete(by);
  if (wanting.size > 0) wanted().set(event, wanting);
  else wanted().delete(event);
}

function createQueue(url?: string): PgBoss {
  const pool = createPool({ name: "queue", max: 3, url, timeouts: url ? null : {}, applicationName: "manabiya-queue" });
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: QUEUE_SCHEMA,
    // no cron schedules: the app's periodic work is platform/ops/periodic.ts
    schedule: false,
    // finished jobs are kept a day for the state the managers see, then archived and deleted by pg-boss
    archiveCompletedAfterSeconds: 24 * 3600,
  });
  boss.on("error", (error) => log().error({ event: "queue.failed", ...errorField(error) }, "queue: pg-boss failed"));
  boss.on("stopped", () => void pool.end().catch(() => undefined));
  return boss;
}

/**
 * This process's job queue, started (the first call starts it; a failed start is tried again by the next call).
 * `url`: another database than the app's (a test's or a tool's), for the first call only.
 */
export function jobQueue(url?: string): Promise<JobQueue> {
  if (!shared.manabiyaQueue) {
    const boss = createQueue(url);
    const started = boss.start().then(() => {
      onShutdown(() => void stopJobQueue());
      return boss;
    });
    started.catch(() => {
      if (shared.manabiyaQueue === started) shared.manabiyaQueue = undefined;
    });
    shared.manabiyaQueue = started;
  }
  return shared.manabiyaQueue;
}

/** Stops this process's queue: its workers finish the jobs they hold (at most 5 s), then its connections close. */
export async function stopJobQueue(): Promise<void> {
  // nothing is published from here on (the answers a shutdown still writes do not start the queue again)
  wanted().clear();
  const started = shared.manabiyaQueue;
  shared.manabiyaQueue = undefined;
  if (!started) return;
  const boss = await started.catch(() => null);
  await boss?.stop({ graceful: true, timeout: 5_000, wait: true });
}

/**
 * Stops `queue` receiving `event` (pg-boss's unsubscribe: the subscription is the database's, for every instance) if
 * this process's queue runs: a feature whose jobs are of no use now, while another feature still has the event
 * published, so that its jobs do not pile up unworked. Nothing when the queue does not run (nothing is published).
 */
export async function unsubscribeIfRunning(event: string, queue: string): Promise<void> {
  const started = shared.manabiyaQueue;
  const boss = started ? await started.catch(() => null) : null;
  await boss?.unsubscribe(event, queue);
}

/**
 * Publishes `data` to every queue subscribed to `event` (pg-boss's publish: one insert), without waiting for it,
 * if the event is wanted in this process (setEventWanted): a failure is logged and the caller goes on. For a path
 * that must not wait on the queue (the answer save).
 */
export function publishLater(event: string, data: object): void {
  if (!wanted().has(event)) return;
  void jobQueue()
    .then((boss) => boss.publish(event, data))
    .catch((error: unknown) =>
      log().error({ event: "queue.publish.failed", topic: event, ...errorField(error) }, "queue: publish failed"),
    );
}
