import "server-only";
import {
  ensureQueue,
  type Job,
  jobQueue,
  type JobQueue,
  setEventWanted,
  unsubscribeIfRunning,
} from "@/platform/queue/commands";
import { followForeground } from "@/platform/ops/foreground";
import { forkIdleChild } from "@/platform/ops/idle-child";
import { errorField, log } from "@/platform/ops/log";
import { schedulePeriodic } from "@/platform/ops/periodic";
import { ANSWERS_WRITTEN, type AnswersWritten } from "@/features/play/server/answer-events";
import { academiesWaiting, anyLrs } from "./lrs-queries";
import { deliverBatch, type Delivery } from "./deliveries";
import { deliverWaiting, failWaiting, LrsUnavailable } from "./xapi-deliver-commands";
import { recordAnswers } from "./xapi-record-commands";

/**
 * The learning records' two queues (platform/queue/commands.ts; features/lti/README.md "Learning records"):
 * `xapi-record` receives the answers the save statements wrote (the event answers.written, gathered into a job per
 * GATHER_MS: platform/queue/commands.ts) and stores their
 * statements; `xapi-deliver` sends one academy's waiting statements to its LRS, one job per academy at a time
 * (pg-boss's "stately" policy keyed by the academy), tried again with doubling waits from RETRY_DELAY_S up to
 * RETRY_LIMIT times; then the statements are `failed`. A job held by a worker that died is tried again once it
 * expires (EXPIRE_S).
 */
export const RECORD_QUEUE = "xapi-record";
export const DELIVER_QUEUE = "xapi-deliver";
export const RETRY_LIMIT = 8;
export const RETRY_DELAY_S = 5;
/**
 * How long a worker holds a job before pg-boss takes it back (it stops waiting for the worker's handler, and the job is
 * tried again like a failed one): a job held by a worker that died comes back within EXPIRE_S + 2 × MAINTENANCE_S
 * (platform/queue/commands.ts) + its retry wait (at most 2 × RETRY_DELAY_S for a job not tried before) + a polling
 * interval, under two minutes. Safe for the longest legitimate job: a delivery batch begins POSTs for
 * DELIVERY_BUDGET_MS (deliveries.ts), then waits for a burst of saves to end (DEFER_MAX_MS, 20 s, at most:
 * platform/ops/foreground.ts) and on one POST (its 15-second timeout) and its marks, under 50 s; a record batch is
 * database work alone (RECORD_BATCH jobs' answers), seconds, after such a wait. Held longer all the same (a starved
 * idle child, saves that stop and start again between its slices), a job is done twice: recording again stores nothing twice, and a statement sent again is one the LRS
 * holds already (its id; 409 counts as sent).
 */
export const EXPIRE_S = 60;
/**
 * The jobs one fetch takes and records together (each the answers of up to GATHER_MAX saves, 500): a worker fetches
 * again only a polling interval after its last fetch began, so a school saving at once is caught up in a few fetches.
 */
export const RECORD_BATCH = 40;
/** The workers' child process's heap: a fetch of RECORD_BATCH jobs' answers (20,000 at most, about 2,000 in a class's burst) and their statements. */
export const WORKER_HEAP_MB = 384;

interface Deliver {
  academyId: string;
}

/** The statements of a batch of jobs' answers, stored together (xapi-record-commands.ts), then their deliveries asked for. */
async function record(boss: JobQueue, jobs: Job<AnswersWritten>[]) {
  for (const academyId of await recordAnswers(jobs.map((job) => job.data.answers)))
    await requestDelivery(boss, academyId);
}

/** A delivery of the academy's waiting statements (none queued twice: the queue's policy keeps one waiting). */
export async function requestDelivery(boss: JobQueue, academyId: string): Promise<void> {
  await boss.send(DELIVER_QUEUE, { academyId } satisfies Deliver, { singletonKey: academyId });
}

function delivery(boss: JobQueue): Delivery<Deliver> {
  return {
    keyOf: (data) => data.academyId,
    send: deliverWaiting,
    request: (academyId) => requestDelivery(boss, academyId),
    away: LrsUnavailable,
    fail: failWaiting,
    warn: { event: "xapi.deliver.retry", field: "academyId", message: "xapi: LRS away" },
  };
}

/**
 * Creates the queues, or gives the existing ones these options (ensureQueue), and the answers' subscription:
 * `retryDelaySeconds` the first wait before a delivery is tried again, `expireSeconds` how long a job is held.
 */
export async function createXapiQueues(boss: JobQueue, retryDelaySeconds = RETRY_DELAY_S, expireSeconds = EXPIRE_S) {
  const common = { retryLimit: RETRY_LIMIT, retryBackoff: true, expireInSeconds: expireSeconds };
  await ensureQueue(boss, { name: RECORD_QUEUE, ...common, retryDelay: 1 });
  await ensureQueue(boss, { name: DELIVER_QUEUE, policy: "stately", ...common, retryDelay: retryDelaySeconds });
  await boss.subscribe(ANSWERS_WRITTEN, RECORD_QUEUE);
}

/**
 * Creates the queues and works them in this process (the workers' child, xapi-worker-child.mjs; a test):
 * `pollingSeconds` how often an idle worker looks for jobs, `retryDelaySeconds` the first wait before a delivery is
 * tried again, `expireSeconds` how long a job is held (a test's are short).
 */
export async function startXapiWorkers(
  boss: JobQueue,
  pollingSeconds = 2,
  retryDelaySeconds = RETRY_DELAY_S,
  expireSeconds = EXPIRE_S,
) {
  await createXapiQueues(boss, retryDelaySeconds, expireSeconds);
  const options = { includeMetadata: true as const, pollingIntervalSeconds: pollingSeconds };
  await boss.work<AnswersWritten>(RECORD_QUEUE, { ...options, batchSize: RECORD_BATCH }, (jobs) => record(boss, jobs));
  await boss.work<Deliver>(DELIVER_QUEUE, { ...options, batchSize: 5 }, (jobs) => deliverBatch(delivery(boss), jobs));
}

/**
 * The workers in a child process at idle priority (xapi-worker-child.mjs); resolves once it works the queues, and
 * `ended` is called when it ends (the next check starts another).
 */
function startWorkersChild(ended: () => void): Promise<void> {
  const child = forkIdleChild(["features", "lti", "server", "xapi-worker-child.mjs"], [], {
    heapMb: WORKER_HEAP_MB,
    env: process.env,
  });
  followForeground(child);
  return new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => {
      ended();
      log().warn({ event: "xapi.workers.exited", code }, "xapi: the workers' process ended");
      reject(new Error(`the xapi workers' process ended (${code})`));
    });
  });
}

const shared = globalThis as unknown as { manabiyaXapiWorkers?: { queues: Promise<void>; child: Promise<void> } };

/**
 * Turns the learning records on in this process once an academy has an LRS: the answer saves publish, the queue
 * starts and its workers run in a child process at idle priority (startWorkersChild; once per process, shared
 * through globalThis by Next's bundles); off while none has. Resolves once the queues take what is published, not
 * when the child is ready: at idle priority on a busy machine it may wait seconds for a core, and a manager's save of
 * the LRS waits for this.
 */
export async function checkXapi(): Promise<void> {
  const on = await anyLrs();
  setEventWanted(ANSWERS_WRITTEN, on, "xapi");
  if (on && !shared.manabiyaXapiWorkers) {
    const queues = jobQueue().then((boss) => createXapiQueues(boss));
    const workers = {
      queues,
      child: queues.then(() =>
        startWorkersChild(() => {
          if (shared.manabiyaXapiWorkers === workers) shared.manabiyaXapiWorkers = undefined;
        }),
      ),
    };
    workers.child.catch(() => {
      if (shared.manabiyaXapiWorkers === workers) shared.manabiyaXapiWorkers = undefined;
    });
    shared.manabiyaXapiWorkers = workers;
  }
  await shared.manabiyaXapiWorkers?.queues;
  // off: the answers another feature still has published do not pile up in this one's queue
  if (!on) return unsubscribeIfRunning(ANSWERS_WRITTEN, RECORD_QUEUE);
  const boss = await jobQueue();
  // on again after being off: receiving the answers again
  await boss.subscribe(ANSWERS_WRITTEN, RECORD_QUEUE);
  // statements left waiting without a delivery (a process that died between storing and asking, a restored backup)
  for (const academyId of await academiesWaiting()) await requestDelivery(boss, academyId);
}

const CHECK_MS = 30_000;

/**
 * In a server process: checkXapi at start and every CHECK_MS (an LRS set with the admin CLI is seen within it, and
 * statements left waiting are asked for again).
 */
export function scheduleXapi(): void {
  void checkXapi().catch((error: unknown) =>
    log().error({ event: "xapi.start.failed", ...errorField(error) }, "xapi: the queue did not start"),
  );
  schedulePeriodic("xapi.check", CHECK_MS, checkXapi);
}
