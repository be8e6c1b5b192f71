import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import type { AuthorizedSchoolId } from "@/lib/schools/scope";

export interface ActivityRow {
  id: string;
  title: string;
  actorType: "student" | "teacher";
  mode: "standby" | "guide" | "self" | "complete";
  status: "active" | "archived";
  sceneCount: number;
  respondents: number;
  updatedAt: Date;
}

/** The school's activities with scene and respondent counts (two grouped queries, no N+1). */
export async function listActivitiesForSchool(schoolId: AuthorizedSchoolId, status: "active" | "archived"): Promise<ActivityRow[]> {
  const activities = await db().activity.findMany({
    where: { schoolId, status },
    orderBy: { updatedAt: "desc" },
    select: {
      id: true, title: true, actorType: true, mode: true, status: true, updatedAt: true,
      _count: { select: { scenes: true } },
    },
  });
  if (activities.length === 0) return [];
  const respondents = await db().$queryRaw<{ activity_id: string; n: bigint }[]>`
    select activity_id, count(distinct user_id) as n from responses
    where activity_id = any(${activities.map((a) => a.id)}::uuid[]) group by activity_id`;
  const counts = new Map(respondents.map((r) => [r.activity_id, Number(r.n)]));
  return activities.map(({ _count, ...a }) => ({ ...a, sceneCount: _count.scenes, respondents: counts.get(a.id) ?? 0 }));
}

export async function listTemplates() {
  return db().activityTemplate.findMany({
    orderBy: { title: "asc" },
    select: {
      id: true, title: true, description: true, actorType: true,
      scenes: { orderBy: { position: "asc" }, select: { type: true, content: true } },
    },
  });
}

/** One activity of the school with its scenes in default order and its group orders; null when not in scope. */
export async function getActivityWithScenes(schoolId: AuthorizedSchoolId, activityId: string) {
  if (!z.uuid().safeParse(activityId).success) return null;
  return db().activity.findFirst({
    where: { id: activityId, schoolId },
    select: {
      id: true, title: true, actorType: true, mode: true, status: true, version: true,
      scenes: { orderBy: { position: "asc" }, select: { id: true, type: true, content: true, position: true } },
      sceneOrders: { select: { group: true, sceneIds: true } },
    },
  });
}

/** The school's activities answered most recently, with when and by how many (the teacher home's "recent results"). */
export async function listRecentlyAnswered(schoolId: AuthorizedSchoolId, limit = 5) {
  const rows = await db().$queryRaw<{ id: string; title: string; last: Date; n: bigint }[]>`
    select a.id, a.title, max(r.updated_at) as last, count(distinct r.user_id) as n
    from responses r join activities a on a.id = r.activity_id
    where a.school_id = ${schoolId}::uuid and a.status = 'active'
    group by a.id, a.title order by last desc limit ${limit}`;
  return rows.map((r) => ({ id: r.id, title: r.title, last: r.last, respondents: Number(r.n) }));
}
