import PgBoss from "pg-boss";
import { createPool } from "@/platform/db/pools";
import { errorField, log } from "@/platform/ops/log";
import { onShutdown } from "@/platform/shutdown";

/**
 * The app's durable job queue: pg-boss 10 in the app's own database (schema `pgboss`, created or migrated by
 * pg-boss when the first process starts it), reached through a small pool of the app's (platform/db/pools.ts: the
 * same address, timeouts and pooler rules as every other connection). Jobs survive a restart; a failed one is tried
 * again with doubling waits (pg-boss's retryBackoff) until its queue's retry limit, then stays as `failed`.
 * A job held by a process that died (killed, out of memory, a deploy) stays `active` until its queue's expiry
 * (each feature's queues set one that fits their work, ensureQueue), then pg-boss's maintenance, run every
 * MAINTENANCE_S by one of the processes, fails it and it is tried again like any failed job.
 *
 * One queue per process, shared through globalThis by the production server (server/main.ts) and Next.js's bundles
 * (each has its own copy of this module), started on first use and stopped at shutdown (platform/shutdown.ts).
 * A feature names its queues and works them (features/lti/server/xapi-queue.ts); the answer save only publishes.
 */
export type JobQueue = PgBoss;
export type Job<T> = PgBoss.JobWithMetadata<T>;

export const QUEUE_SCHEMA = "pgboss";
/**
 * How often pg-boss's maintenance runs (expires the jobs held past their queue's expiry, archives, deletes): every
 * MAINTENANCE_S by whichever process's turn it is (pg-boss keeps the time of the last run in its schema, so several
 * processes do not multiply it); a run can find the last one a moment short of the interval and leave it to the next,
 * so an expired job is seen within 2 × MAINTENANCE_S.
 */
export const MAINTENANCE_S = 10;

/** A test's queue: its own schema (so that its short expiry is no other test's) and maintenance interval. */
export interface QueueTuning {
  schema?: string;
  maintenanceSeconds?: number;
}

/** How long items given to publishGathered wait for more of their event before they go as one job. */
export const GATHER_MS = 200;
/** The items one gathered job carries at most (unless one call gives more). */
export const GATHER_MAX = 500;

interface Gathering {
  field: string;
  items: unknown[];
  timer: NodeJS.Timeout;
}

const shared = globalThis as unknown as {
  manabiyaQueue?: Promise<PgBoss>;
  manabiyaWanted?: Map<string, Set<string>>;
  manabiyaGathering?: Map<string, Gathering>;
};
const wanted = (): Map<string, Set<string>> => (shared.manabiyaWanted ??= new Map());
const gatherings = (): Map<string, Gathering> => (shared.manabiyaGathering ??= new Map());

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

function createQueue(url: string | undefined, tuning: QueueTuning): PgBoss {
  const pool = createPool({ name: "queue", max: 3, url, timeouts: url ? null : {}, applicationName: "manabiya-queue" });
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: tuning.schema ?? QUEUE_SCHEMA,
    // no cron schedules: the app's periodic work is platform/ops/periodic.ts
    schedule: false,
    maintenanceIntervalSeconds: tuning.maintenanceSeconds ?? MAINTENANCE_S,
    // finished jobs are kept a day for the state the managers see, then archived and deleted by pg-boss
    archiveCompletedAfterSeconds: 24 * 3600,
  });
  boss.on("error", (error) => log().error({ event: "queue.failed", ...errorField(error) }, "queue: pg-boss failed"));
  boss.on("stopped", () => void pool.end().catch(() => undefined));
  return boss;
}

/**
 * This process's job queue, started (the first call starts it; a failed start is tried again by the next call).
 * `url`: another database than the app's (a test's or a tool's), `tuning` a test's, for the first call only.
 */
export function jobQueue(url?: string, tuning: QueueTuning = {}): Promise<JobQueue> {
  if (!shared.manabiyaQueue) {
    const boss = createQueue(url, tuning);
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

/**
 * Creates the queue with `options`, or gives an existing one `options` (pg-boss's createQueue leaves a queue that
 * exists as it was created: a deployed database's queues get a changed expiry or retry policy through updateQueue,
 * given all the options, as it takes a policy left out as "standard"). A job takes its queue's expiry and retry
 * policy when it is sent: the jobs sent before keep theirs.
 */
export async function ensureQueue(boss: JobQueue, options: PgBoss.Queue & { name: string }): Promise<void> {
  await boss.createQueue(options.name, options);
  await boss.updateQueue(options.name, options);
}

/**
 * Works a fetched batch of `jobs` one after another within `budgetMs` from now: `each` (given the budget's end, to
 * stop its own steps at it) for each job begun before the end, `later` for the others (the feature asks for them
 * again), so that a batch holds its jobs for the budget and one step of its work at most.
 */
export async function workWithin<J>(
  jobs: J[],
  budgetMs: number,
  each: (job: J, end: number) => Promise<void>,
  later: (job: J) => Promise<void>,
): Promise<void> {
  const end = Date.now() + budgetMs;
  for (const job of jobs) await (Date.now() < end ? each(job, end) : later(job));
}

/** Stops this process's queue: its workers finish the jobs they hold (at most 5 s), then its connections close. */
export async function stopJobQueue(): Promise<void> {
  // what was gathered goes first; nothing is published from here on (the answers a shutdown still writes do not start
  // the queue again)
  for (const event of [...gatherings().keys()]) flushGathered(event);
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

/**
 * Publishes `items` of `event` as publishLater does, gathered with the items the process gives for the same event in
 * the next GATHER_MS into ONE job `{ [field]: items }` (up to GATHER_MAX items a job): a path that publishes on
 * every statement (the answer save) costs the queue one insert and its workers one job per GATHER_MS, not one per
 * statement. Gathered items not yet sent are lost if the process dies (as publishLater's); a shutdown sends them.
 */
export function publishGathered(event: string, field: string, items: unknown[]): void {
  if (!wanted().has(event) || items.length === 0) return;
  const pending = gatherings().get(event);
  if (pending && pending.items.length + items.length > GATHER_MAX) flushGathered(event);
  const gathering = gatherings().get(event) ?? startGathering(event, field);
  gathering.items.push(...items);
}

function startGathering(event: string, field: string): Gathering {
  const gathering = { field, items: [], timer: setTimeout(() => flushGathered(event), GATHER_MS) };
  gatherings().set(event, gathering);
  return gathering;
}

function flushGathered(event: string): void {
  const gathering = gatherings().get(event);
  if (!gathering) return;
  gatherings().delete(event);
  clearTimeout(gathering.timer);
  publishLater(event, { [gathering.field]: gathering.items });
}
