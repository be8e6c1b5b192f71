import "server-only";
import { type Job, workWithin } from "@/platform/queue/commands";
import { errorField, log } from "@/platform/ops/log";

/**
 * How long a fetched batch of delivery jobs begins requests: the keys after it are asked for again (a new job), and
 * a delivery stops its own requests at it, so that a batch holds its jobs this long and one request's wait at most.
 */
export const DELIVERY_BUDGET_MS = 10_000;

/** A delivery queue's work (xapi-queue.ts: an academy's statements to its LRS; score-queue.ts: a link's score). */
export interface Delivery<D> {
  keyOf: (data: D) => string;
  /** Sends what waits for `key`, beginning no request after `end` (ms since the epoch): whether none is left. */
  send: (key: string, end: number) => Promise<boolean>;
  /** Asks for another delivery for `key` (one job per key waits at a time: the queue's "stately" policy). */
  request: (key: string) => Promise<void>;
  /** The error saying the receiver cannot take it now: the job is tried again, `fail` once its retries are spent. */
  away: abstract new (...args: never[]) => Error;
  fail: (key: string) => Promise<void>;
  /** The warning logged when the receiver is away: its event, the key's field name, its message. */
  warn: { event: string; field: string; message: string };
}

async function deliverOne<D>(delivery: Delivery<D>, job: Job<D>, end: number) {
  const key = delivery.keyOf(job.data);
  try {
    if (!(await delivery.send(key, end))) await delivery.request(key);
  } catch (error) {
    if (!(error instanceof delivery.away)) throw error;
    const { event, field, message } = delivery.warn;
    log().warn({ event, [field]: key, ...errorField(error) }, message);
    if (job.retryCount >= job.retryLimit) await delivery.fail(key);
    throw error;
  }
}

/** Works a fetched batch of delivery jobs within DELIVERY_BUDGET_MS (workWithin). */
export async function deliverBatch<D>(delivery: Delivery<D>, jobs: Job<D>[]): Promise<void> {
  await workWithin(
    jobs,
    DELIVERY_BUDGET_MS,
    (job, end) => deliverOne(delivery, job, end),
    (job) => delivery.request(delivery.keyOf(job.data)),
  );
}
