import "server-only";
import { db } from "@/platform/db";
import { statementJson } from "./xapi-body";

/** Whether any academy has an LRS (the answer saves publish for the learning records only then). */
export async function anyLrs(): Promise<boolean> {
  return (await db().academyLrs.count({ take: 1 })) > 0;
}

/** The academies with statements waiting: from the waiting statements' index. */
export const ACADEMIES_WAITING_SQL = `select distinct academy_id from xapi_statements_waiting`;

/** The academies with statements waiting to be sent (a delivery lost to a crash or a restore is asked for again). */
export async function academiesWaiting(): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<{ academy_id: string }[]>(ACADEMIES_WAITING_SQL);
  return rows.map((r) => r.academy_id);
}

/**
 * The order of an academy's or activity's statements, the one the LRS receives them in and the download lists
 * them in: made first, then in one instant `initialized` before `answered` before `completed` (the rank, which
 * xapi_statements_waiting keeps), then by id.
 */
export const VERB_RANK_SQL = `(case verb when 'initialized' then 0 when 'answered' then 1 else 2 end)`;
export const STATEMENT_ORDER_SQL = `created_at, ${VERB_RANK_SQL}, id`;

/**
 * An academy's ($1) next $2 waiting statements, in the order the LRS receives them, each id as text and its stored
 * JSON: read in that order from xapi_statements_waiting_idx, not every waiting statement sorted.
 */
export const NEXT_BATCH_SQL = `
  select w.id::text as id, s.body
  from (select id, created_at, rank from xapi_statements_waiting
    where academy_id = $1::uuid order by created_at, rank, id limit $2) w
  join xapi_statements s on s.id = w.id
  order by w.created_at, w.rank, w.id`;

/**
 * The academy's ($1) statements as its manager's card counts them, without reading every statement: waiting (the
 * waiting rows' index), sent (the count markSent keeps, xapi-deliver-commands.ts), parked or failed (the few rows of
 * the partial index xapi_statements_outcome_idx), and the LRS's newest answer to a statement by when the statement
 * was made: the newest of one waiting and one parked or failed (each the last of its index with an answer).
 */
export const LRS_CARD_SQL = `
  select
    (select count(*) from xapi_statements_waiting where academy_id = $1::uuid) as waiting,
    coalesce((select sent from xapi_sent_counts where academy_id = $1::uuid), 0) as sent,
    (select count(*) from xapi_statements where academy_id = $1::uuid and outcome is not null) as failed,
    (select last_error from (
      (select last_error, created_at from xapi_statements_waiting
        where academy_id = $1::uuid and last_error is not null order by created_at desc limit 1)
      union all
      (select last_error, created_at from xapi_statements
        where academy_id = $1::uuid and outcome is not null and last_error is not null order by created_at desc limit 1)
    ) answers order by created_at desc limit 1) as last_error`;

/** The academy's LRS as its manager sees it (never the credentials) and its statements' state; null: none set. */
export async function getAcademyLrs(academyId: string) {
  const lrs = await db().academyLrs.findUnique({
    where: { academyId },
    select: { endpoint: true, includeNames: true, updatedAt: true },
  });
  if (!lrs) return null;
  const [card] = await db().$queryRawUnsafe<
    { waiting: bigint; sent: bigint; failed: bigint; last_error: string | null }[]
  >(LRS_CARD_SQL, academyId);
  return {
    ...lrs,
    waiting: Number(card!.waiting),
    sent: Number(card!.sent),
    failed: Number(card!.failed),
    lastError: card!.last_error,
  };
}
export type AcademyLrsView = NonNullable<Awaited<ReturnType<typeof getAcademyLrs>>>;

type Page = { created_at: Date; rank: number; id: string };

/** The statements made for an activity, oldest first, as JSON lines (the caller checked the activity is the staff's school's). */
export async function* activityStatementLines(activityId: string): AsyncGenerator<string> {
  // pages of 500, each after the last one's place in STATEMENT_ORDER_SQL
  let after: Page | null = null;
  for (;;) {
    const rows: (Page & { body: Uint8Array })[] = await db().$queryRawUnsafe(
      `select created_at, ${VERB_RANK_SQL} as rank, id::text, body
       from xapi_statements
       where activity_id = $1::uuid and ($2::timestamptz is null or (${STATEMENT_ORDER_SQL}) > ($2, $3::int, $4::uuid))
       order by ${STATEMENT_ORDER_SQL} limit 500`,
      activityId,
      after?.created_at ?? null,
      after?.rank ?? null,
      after?.id ?? null,
    );
    for (const row of rows) yield `${statementJson(row.body)}\n`;
    if (rows.length < 500) return;
    after = rows[rows.length - 1]!;
  }
}
