import "server-only";
import {
  ensureQueue,
  type Job,
  jobQueue,
  type JobQueue,
  setEventWanted,
  unsubscribeIfRunning,
} from "@/platform/queue/commands";
import { errorField, log } from "@/platform/ops/log";
import { schedulePeriodic } from "@/platform/ops/periodic";
import { ANSWERS_WRITTEN, type AnswersWritten } from "@/features/play/server/answer-events";
import { SESSION_ENDED, type SessionEnded } from "@/features/activities/server/session-events";
import { MARKS_WRITTEN, type MarkWritten } from "@/features/results/server/mark-events";
import { standingOf } from "./completion-queries";
import { deliverScore, failScore, lineitemLinks, putScore, scoreOf } from "./score-commands";
import { anyLineitem, launchedParticipants, linksWaiting, scoredLinks } from "./score-queries";
import { ServiceUnavailable } from "./platform-token";
import { deliverBatch, type Delivery } from "./deliveries";

/**
 * The scores' two queues (platform/queue/commands.ts, the one queue mechanism; features/lti/README.md "Scores and
 * members"): `lti-score-record` receives the answers each save statement wrote (answers.written), the teachers' marks
 * (marks.written) and the live sessions' ends (sessions.ended) and keeps the score (score-commands.ts) of a person
 * launched into the activity with a line item, asking for its delivery: once they have answered every scene, on a
 * mark once they have a score or have answered every scene, and at the end of a live session they took part in;
 * `lti-score-deliver` posts a link's newest waiting score, one job per link at a time (pg-boss's "stately" policy
 * keyed by the link), tried again with doubling waits from RETRY_DELAY_S up to RETRY_LIMIT times; then the score is
 * `failed`. A job held by a worker that died is tried again once it expires (EXPIRE_S).
 */
export const SCORE_RECORD_QUEUE = "lti-score-record";
export const SCORE_DELIVER_QUEUE = "lti-score-deliver";
export const RETRY_LIMIT = 8;
export const RETRY_DELAY_S = 5;
/**
 * How long a worker holds a job before pg-boss takes it back (it stops waiting for the worker's handler, and the job is
 * tried again like a failed one): a job held by a worker that died comes back within EXPIRE_S + 2 × MAINTENANCE_S
 * (platform/queue/commands.ts) + its retry wait (at most 2 × RETRY_DELAY_S for a job not tried before) + a polling
 * interval, under two minutes. Safe for the longest legitimate job: a delivery batch begins posts for
 * DELIVERY_BUDGET_MS (deliveries.ts), then waits on one delivery at most, a token request and the score's post
 * (15-second timeouts each, platform-token.ts), under 45 seconds; a record batch (5 events) is database work alone,
 * seconds. Held longer all the same, a job is done twice: keeping a score again changes nothing, and a score posted
 * again carries the same timestamp.
 */
export const EXPIRE_S = 60;

interface Deliver {
  linkId: string;
}

/** A delivery of the link's waiting score (none queued twice: the queue's policy keeps one waiting). */
export async function requestScoreDelivery(boss: JobQueue, linkId: string): Promise<void> {
  await boss.send(SCORE_DELIVER_QUEUE, { linkId } satisfies Deliver, { singletonKey: linkId });
}

/** The events the scores receive, all into SCORE_RECORD_QUEUE. */
const SCORE_EVENTS = [ANSWERS_WRITTEN, MARKS_WRITTEN, SESSION_ENDED];
type Recorded = AnswersWritten | MarkWritten | SessionEnded;

/**
 * Keeps the person's score of the activity, timestamped `at`, on their links with a line item, and asks for its
 * delivery: `done` once every scene is answered; `scored` then too, and before on the links that have a score kept
 * (a live session's end sent one); `always` whatever they answered.
 */
async function rescore(
  boss: JobQueue,
  userId: string,
  activityId: string,
  at: string,
  when: "done" | "scored" | "always",
) {
  let links = await lineitemLinks(userId, activityId);
  if (links.length === 0) return;
  const standing = await standingOf(activityId, userId);
  const done = standing.scenes > 0 && standing.answered === standing.scenes;
  if (!done && when === "done") return;
  if (!done && when === "scored") links = await scoredLinks(links);
  for (const linkId of links) {
    if (await putScore(linkId, scoreOf(standing, new Date(at)))) await requestScoreDelivery(boss, linkId);
  }
}

async function recordOne(boss: JobQueue, data: Recorded) {
  if ("answers" in data) {
    for (const a of data.answers) await rescore(boss, a.userId, a.activityId, a.savedAt, "done");
  } else if ("markedAt" in data) {
    await rescore(boss, data.userId, data.activityId, data.markedAt, "scored");
  } else {
    for (const userId of await launchedParticipants(data.sessionId, data.activityId))
      await rescore(boss, userId, data.activityId, data.endedAt, "always");
  }
}

async function record(boss: JobQueue, jobs: Job<Recorded>[]) {
  for (const job of jobs) await recordOne(boss, job.data);
}

function delivery(boss: JobQueue): Delivery<Deliver> {
  return {
    keyOf: (data) => data.linkId,
    send: deliverScore,
    request: (linkId) => requestScoreDelivery(boss, linkId),
    away: ServiceUnavailable,
    fail: failScore,
    warn: { event: "lti.score.retry", field: "linkId", message: "lti: platform away" },
  };
}

/**
 * Creates the queues, or gives the existing ones these options (ensureQueue), and works them in this process:
 * `pollingSeconds` how often an idle worker looks for jobs, `retryDelaySeconds` the first wait before a delivery is
 * tried again, `expireSeconds` how long a job is held (a test's are short).
 */
export async function startScoreWorkers(
  boss: JobQueue,
  pollingSeconds = 2,
  retryDelaySeconds = RETRY_DELAY_S,
  expireSeconds = EXPIRE_S,
) {
  const common = { retryLimit: RETRY_LIMIT, retryBackoff: true, expireInSeconds: expireSeconds };
  await ensureQueue(boss, { name: SCORE_RECORD_QUEUE, ...common, retryDelay: 1 });
  await ensureQueue(boss, { name: SCORE_DELIVER_QUEUE, policy: "stately", ...common, retryDelay: retryDelaySeconds });
  for (const event of SCORE_EVENTS) await boss.subscribe(event, SCORE_RECORD_QUEUE);
  const options = { includeMetadata: true as const, batchSize: 5, pollingIntervalSeconds: pollingSeconds };
  await boss.work<Recorded>(SCORE_RECORD_QUEUE, options, (jobs) => record(boss, jobs));
  await boss.work<Deliver>(SCORE_DELIVER_QUEUE, options, (jobs) => deliverBatch(delivery(boss), jobs));
}

const shared = globalThis as unknown as { manabiyaScoreWorkers?: Promise<void> };

/**
 * Turns the scores on in this process once a launch has named a line item: the answer saves, the marks and the
 * sessions' ends publish, the queue
 * starts and its workers run (once per process, shared through globalThis by Next's bundles); off while none has.
 */
export async function checkScores(): Promise<void> {
  const on = await anyLineitem();
  for (const event of SCORE_EVENTS) setEventWanted(event, on, "lti-scores");
  if (on && !shared.manabiyaScoreWorkers) {
    const started = jobQueue().then((boss) => startScoreWorkers(boss));
    started.catch(() => {
      if (shared.manabiyaScoreWorkers === started) shared.manabiyaScoreWorkers = undefined;
    });
    shared.manabiyaScoreWorkers = started;
  }
  await shared.manabiyaScoreWorkers;
  // off: the answers another feature still has published do not pile up in this one's queue
  if (!on) {
    for (const event of SCORE_EVENTS) await unsubscribeIfRunning(event, SCORE_RECORD_QUEUE);
    return;
  }
  const boss = await jobQueue();
  // on again after being off: receiving the events again
  for (const event of SCORE_EVENTS) await boss.subscribe(event, SCORE_RECORD_QUEUE);
  // scores left waiting without a delivery (a process that died between keeping and asking, a restored backup)
  for (const linkId of await linksWaiting()) await requestScoreDelivery(boss, linkId);
}

const CHECK_MS = 30_000;

/** In a server process: checkScores at start and every CHECK_MS. */
export function scheduleScores(): void {
  void checkScores().catch((error: unknown) =>
    log().error({ event: "lti.scores.start.failed", ...errorField(error) }, "lti: the score queue did not start"),
  );
  schedulePeriodic("lti.scores.check", CHECK_MS, checkScores);
}
