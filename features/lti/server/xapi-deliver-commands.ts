import "server-only";
import { openSecret } from "@/platform/auth/secret-box";
import { db } from "@/platform/db";
import { foregroundQuiet } from "@/platform/ops/foreground";
import { env } from "@/platform/env";
import { XAPI_VERSION } from "@/features/lti/shared/xapi";
import { NEXT_BATCH_SQL } from "./lrs-queries";
import { statementJson } from "./xapi-body";

/**
 * Sends an academy's waiting statements to its LRS (features/lti/README.md "Learning records"): POST
 * {endpoint}/statements, at most BATCH at a time, with Basic credentials and X-Experience-API-Version 1.0.3.
 * Accepted (2xx, or 409: the LRS holds that id already) → sent (its waiting row deleted and the academy's count of
 * statements sent grown, in one statement: markSent; nothing else written); refused
 * for good (any other 4xx but 408 and 429) → each statement of the batch is tried alone and the one refused is
 * `parked` with the LRS's answer; anything else (5xx, 408, 429, no answer) → an error thrown, the job is tried again
 * later (xapi-queue.ts), the statements stay waiting with the error, and `failed` once the retries are spent. A
 * delivery begins no POST after the end it is given (deliveries.ts: its batch's budget): one is asked for again for
 * the statements left waiting.
 */

const BATCH = 50;
const TIMEOUT_MS = 15_000;

export class LrsUnavailable extends Error {}

interface Waiting {
  id: string;
  /** the statement's JSON as stored (xapi-body.ts) */
  body: Uint8Array;
}

async function lrsOf(academyId: string) {
  const lrs = await db().academyLrs.findUnique({ where: { academyId } });
  if (!lrs) return null;
  const credentials = openSecret(lrs.credentialsSealed, env().SIGNIN_CODE_KEY, "lrs-credentials");
  return { url: `${lrs.endpoint}/statements`, authorization: `Basic ${Buffer.from(credentials).toString("base64")}` };
}

type Lrs = NonNullable<Awaited<ReturnType<typeof lrsOf>>>;

/** The LRS's answer to the statements (their JSON texts): "sent", or the refusal ("parked"), or LrsUnavailable thrown. */
async function post(lrs: Lrs, statements: string[]): Promise<{ sent: true } | { sent: false; error: string }> {
  let res: Response;
  try {
    res = await fetch(lrs.url, {
      method: "POST",
      headers: {
        authorization: lrs.authorization,
        "content-type": "application/json",
        "x-experience-api-version": XAPI_VERSION,
      },
      body: `[${statements.join(",")}]`,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: "error",
    });
  } catch (error) {
    throw new LrsUnavailable(`no answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = (await res.text().catch(() => "")).slice(0, 500);
  if (res.ok || res.status === 409) return { sent: true };
  const error = `${res.status} ${text}`.trim();
  if (res.status >= 500 || res.status === 408 || res.status === 429) throw new LrsUnavailable(error);
  return { sent: false, error };
}

/**
 * Sent: the academy's ($1) statements ($2) wait no longer (their rows stay as they were written), and the academy's
 * count of statements sent grows by the waiting rows this deleted, in the same statement: a batch two deliveries
 * send at once is counted once, by the one whose delete took its rows.
 */
const MARK_SENT_SQL = `
  with gone as (delete from xapi_statements_waiting where id = any($2::uuid[]) returning id)
  insert into xapi_sent_counts (academy_id, sent)
  select $1::uuid, count(*) from gone having count(*) > 0
  on conflict (academy_id) do update set sent = xapi_sent_counts.sent + excluded.sent`;

async function markSent(academyId: string, ids: string[]) {
  await db().$executeRawUnsafe(MARK_SENT_SQL, academyId, ids);
}

/**
 * Each academy's statements sent (neither parked nor failed, no longer waiting), counted again from the statements;
 * an academy with none sent has no row. For after a rolling upgrade to the version that counts: a server of the
 * version before sent statements without counting them. The two tables are locked as the migration that brought the
 * count in locked them (prisma/migrations/20261205090000_xapi_sent_counts): storing and sending wait while it counts
 * (a board of education's tens of millions of statements: minutes), answer saves do not.
 */
const RECOUNT_SENT_SQL = `
  with counted as (
    select s.academy_id, count(*) as sent from xapi_statements s
    where s.outcome is null and not exists (select from xapi_statements_waiting w where w.id = s.id)
    group by s.academy_id
  ), stale as (
    delete from xapi_sent_counts c where not exists (select from counted where counted.academy_id = c.academy_id)
  ), kept as (
    insert into xapi_sent_counts (academy_id, sent) select academy_id, sent from counted
    on conflict (academy_id) do update set sent = excluded.sent
    returning sent
  )
  select count(*)::int as academies, coalesce(sum(sent), 0)::bigint as sent from kept`;

export async function recountSent(): Promise<{ academies: number; sent: bigint }> {
  return db().$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`lock table xapi_statements in share mode`);
      await tx.$executeRawUnsafe(`lock table xapi_statements_waiting in share row exclusive mode`);
      const [counted] = await tx.$queryRawUnsafe<{ academies: number; sent: bigint }[]>(RECOUNT_SENT_SQL);
      return counted!;
    },
    // as long as the count takes on a large table; the locks wait for the deliveries under way
    { maxWait: 60_000, timeout: 60 * 60_000 },
  );
}

/** Refused for good: the statement waits no longer, `parked` with the LRS's answer (in one transaction). */
async function park(id: string, lastError: string) {
  await db().$transaction([
    db().xapiStatement.update({ where: { id }, data: { outcome: "parked", lastError } }),
    db().xapiStatementWaiting.delete({ where: { id } }),
  ]);
}

async function sendBatch(academyId: string, lrs: Lrs, batch: Waiting[], end: number) {
  const answer = await post(
    lrs,
    batch.map((w) => statementJson(w.body)),
  );
  const ids = batch.map((w) => w.id);
  if (answer.sent) return markSent(academyId, ids);
  if (batch.length === 1) return park(batch[0]!.id, answer.error);
  // refused as a batch: each alone, so that only the statement the LRS refuses is parked (the rest, past the end, wait)
  for (const w of batch) if (Date.now() < end) await sendBatch(academyId, lrs, [w], end);
}

/**
 * Sends the academy's waiting statements, beginning no POST after `end` (ms since the epoch): whether none is left
 * waiting. Throws LrsUnavailable when the LRS cannot take them now.
 */
export async function deliverWaiting(academyId: string, end: number): Promise<boolean> {
  const lrs = await lrsOf(academyId);
  if (!lrs) return true;
  for (;;) {
    // a class's burst of saves first: marking a batch sent writes log their commits would wait for
    await foregroundQuiet();
    if (Date.now() >= end) return false;
    const batch = await db().$queryRawUnsafe<Waiting[]>(NEXT_BATCH_SQL, academyId, BATCH);
    if (batch.length === 0) return true;
    try {
      await sendBatch(academyId, lrs, batch, end);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await db().xapiStatementWaiting.updateMany({
        where: { id: { in: batch.map((w) => w.id) } },
        data: { lastError: message.slice(0, 500) },
      });
      throw error;
    }
  }
}

/**
 * The retries are spent: the academy's waiting statements are `failed` (kept, with their last error), in one
 * statement (a statement stored meanwhile waits for the next delivery).
 */
export async function failWaiting(academyId: string): Promise<void> {
  await db().$executeRaw`
    with gone as (delete from xapi_statements_waiting where academy_id = ${academyId}::uuid returning id, last_error)
    update xapi_statements s set outcome = 'failed', last_error = gone.last_error from gone where s.id = gone.id`;
}
