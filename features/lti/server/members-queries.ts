import "server-only";
import { db } from "@/platform/db";

/** The newest launch of this person into the activity that named a context's members (NRPS); null: none. */
export function membershipLinkOf(userId: string, activityId: string) {
  return db().ltiServiceLink.findFirst({
    where: { userId, activityId, membershipsUrl: { not: null } },
    orderBy: { updatedAt: "desc" },
    select: {
      contextId: true,
      membershipsUrl: true,
      platform: { select: { id: true, clientId: true, tokenUrl: true, identityClaim: true } },
    },
  });
}
export type MembershipLink = NonNullable<Awaited<ReturnType<typeof membershipLinkOf>>>;

/** The school's roster class whose OneRoster sourcedId is the context's id (the 学習eポータル's class); null: none. */
export function classOfContext(schoolId: string, contextId: string) {
  return db().rosterClass.findFirst({
    where: { schoolId, sourcedId: { equals: contextId, mode: "insensitive" }, grade: { not: null } },
    select: { title: true, grade: true, className: true },
  });
}

/** The enabled students of the school's class with their sourcedIds (null: none imported). */
export async function classStudents(schoolId: string, grade: number, className: string) {
  return db().user.findMany({
    where: { schoolId, role: "student", disabled: false, student: { grade, className } },
    select: { name: true, sourcedId: true },
    orderBy: [{ student: { number: "asc" } }, { name: "asc" }],
  });
}
