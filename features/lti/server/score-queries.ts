import "server-only";
import { db } from "@/platform/db";

/** Whether any launch named a line item (the answer saves publish for the scores only then). */
export async function anyLineitem(): Promise<boolean> {
  return (await db().ltiServiceLink.count({ where: { lineitem: { not: null } }, take: 1 })) > 0;
}

/** Of `links`, those that have a score kept (sent or not). */
export async function scoredLinks(links: string[]): Promise<string[]> {
  const rows = await db().ltiScore.findMany({ where: { linkId: { in: links } }, select: { linkId: true } });
  return rows.map((r) => r.linkId);
}

/**
 * The people of a live session (its presence: they followed it; or an answer given in it) who were launched into its
 * activity with a line item.
 */
export async function launchedParticipants(sessionId: string, activityId: string): Promise<string[]> {
  const rows = await db().$queryRaw<{ user_id: string }[]>`
    select distinct l.user_id::text from lti_service_links l
    where l.activity_id = ${activityId}::uuid and l.lineitem is not null
      and (exists (select 1 from guide_presence p where p.session_id = ${sessionId}::uuid and p.user_id = l.user_id)
        or exists (select 1 from responses r where r.session_id = ${sessionId}::uuid and r.user_id = l.user_id))`;
  return rows.map((r) => r.user_id);
}

/** The links whose score waits to be sent (a delivery lost to a crash or a restore is asked for again). */
export async function linksWaiting(): Promise<string[]> {
  const rows = await db().ltiScore.findMany({ where: { state: "waiting" }, select: { linkId: true } });
  return rows.map((r) => r.linkId);
}

/** The academy's scores as its manager sees them: waiting, sent, not sent (failed or parked), the last error. */
export async function academyScores(academyId: string) {
  const where = { link: { platform: { academyId } } };
  const counts = await db().ltiScore.groupBy({ by: ["state"], where, _count: { _all: true } });
  const count = (state: string) => counts.find((c) => c.state === state)?._count._all ?? 0;
  const last = await db().ltiScore.findFirst({
    where: { ...where, lastError: { not: null } },
    orderBy: { timestamp: "desc" },
    select: { lastError: true },
  });
  return {
    waiting: count("waiting"),
    sent: count("sent"),
    failed: count("failed") + count("parked"),
    lastError: last?.lastError ?? null,
  };
}
export type AcademyScores = Awaited<ReturnType<typeof academyScores>>;
