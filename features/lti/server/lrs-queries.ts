import "server-only";
import { db } from "@/platform/db";

/** Whether any academy has an LRS (the answer saves publish for the learning records only then). */
export async function anyLrs(): Promise<boolean> {
  return (await db().academyLrs.count({ take: 1 })) > 0;
}

/** The academies with statements waiting to be sent (a delivery lost to a crash or a restore is asked for again). */
export async function academiesWaiting(): Promise<string[]> {
  const rows = await db().xapiStatement.findMany({
    where: { state: "waiting" },
    distinct: ["academyId"],
    select: { academyId: true },
  });
  return rows.map((r) => r.academyId);
}

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

/** The statements made for an activity, oldest first, as JSON lines (the caller checked the activity is the staff's school's). */
export async function* activityStatementLines(activityId: string): AsyncGenerator<string> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const rows: { id: string; createdAt: Date; statement: unknown }[] = await db().xapiStatement.findMany({
      where: {
        activityId,
        ...(after
          ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] }
          : {}),
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, createdAt: true, statement: true },
      take: 500,
    });
    for (const row of rows) yield `${JSON.stringify(row.statement)}\n`;
    if (rows.length < 500) return;
    after = rows[rows.length - 1]!;
  }
}
