import "server-only";
import { db } from "@/platform/db";

/** Whether any academy has an LRS (the answer saves publish for the learning records only then). */
export async function anyLrs(): Promise<boolean> {
  return (await db().academyLrs.count({ take: 1 })) > 0;
}

/** The academies with statements waiting: from the waiting statements' index, not every statement. */
export const ACADEMIES_WAITING_SQL = `select distinct academy_id from xapi_statements where state = 'waiting'`;

/** The academies with statements waiting to be sent (a delivery lost to a crash or a restore is asked for again). */
export async function academiesWaiting(): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<{ academy_id: string }[]>(ACADEMIES_WAITING_SQL);
  return rows.map((r) => r.academy_id);
}

/**
 * The order of an academy's or activity's statements, the one the LRS receives them in and the download lists
 * them in: made first, then in one instant `initialized` before `answered` before `completed`, then by id.
 */
const VERB_RANK_SQL = `(case verb when 'initialized' then 0 when 'answered' then 1 else 2 end)`;
export const STATEMENT_ORDER_SQL = `created_at, ${VERB_RANK_SQL}, id`;

/**
 * An academy's ($1) next $2 waiting statements, in the order the LRS receives them, each id as text and its JSON:
 * read in that order from xapi_statements_waiting_idx (its migration), not every waiting statement sorted.
 */
export const NEXT_BATCH_SQL = `
  select w.id::text as id, b.statement
  from (select id, created_at, ${VERB_RANK_SQL} as rank from xapi_statements
    where academy_id = $1::uuid and state = 'waiting' order by ${STATEMENT_ORDER_SQL} limit $2) w
  join xapi_statement_bodies b on b.id = w.id
  order by w.created_at, w.rank, w.id`;

/** The academy's LRS as its manager sees it (never the credentials) and its statements' state; null: none set. */
export async function getAcademyLrs(academyId: string) {
  const lrs = await db().academyLrs.findUnique({
    where: { academyId },
    select: { endpoint: true, includeNames: true, updatedAt: true },
  });
  if (!lrs) return null;
  const counts = await db().xapiStatement.groupBy({ by: ["state"], where: { academyId }, _count: { _all: true } });
  const count = (state: string) => counts.find((c) => c.state === state)?._count._all ?? 0;
  const last = await db().xapiStatement.findFirst({
    where: { academyId, lastError: { not: null } },
    orderBy: { createdAt: "desc" },
    select: { lastError: true, state: true },
  });
  return {
    ...lrs,
    waiting: count("waiting"),
    sent: count("sent"),
    failed: count("failed") + count("parked"),
    lastError: last?.lastError ?? null,
  };
}
export type AcademyLrsView = NonNullable<Awaited<ReturnType<typeof getAcademyLrs>>>;

type Page = { created_at: Date; rank: number; id: string };

/** The statements made for an activity, oldest first, as JSON lines (the caller checked the activity is the staff's school's). */
export async function* activityStatementLines(activityId: string): AsyncGenerator<string> {
  // pages of 500, each after the last one's place in STATEMENT_ORDER_SQL
  let after: Page | null = null;
  for (;;) {
    const rows: (Page & { statement: unknown })[] = await db().$queryRawUnsafe(
      `select created_at, ${VERB_RANK_SQL} as rank, id::text, statement
       from xapi_statements join xapi_statement_bodies using (id)
       where activity_id = $1::uuid and ($2::timestamptz is null or (${STATEMENT_ORDER_SQL}) > ($2, $3::int, $4::uuid))
       order by ${STATEMENT_ORDER_SQL} limit 500`,
      activityId,
      after?.created_at ?? null,
      after?.rank ?? null,
      after?.id ?? null,
    );
    for (const row of rows) yield `${JSON.stringify(row.statement)}\n`;
    if (rows.length < 500) return;
    after = rows[rows.length - 1]!;
  }
}
