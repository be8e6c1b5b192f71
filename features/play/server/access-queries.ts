import "server-only";
import { db } from "@/platform/db";

/** The activity if it is the school's, active and for students (null otherwise). */
export function findStudentActivity(activityId: string, schoolId: string) {
  return db().activity.findFirst({
    where: { id: activityId, schoolId, status: "active", actorType: "student" },
    select: { id: true },
  });
}

/** The activity if it is the school's (null otherwise). */
export function findSchoolActivity(activityId: string, schoolId: string) {
  return db().activity.findFirst({ where: { id: activityId, schoolId }, select: { id: true } });
}

/** A student's grade and 組 (null when they have no seat). */
export function findStudentClass(userId: string) {
  return db().studentDetail.findUnique({ where: { userId }, select: { grade: true, className: true } });
}

/**
 * The school's activities for students (or for teachers) with their mode, state, version, pacing and
 * running live sessions: what a student's home follows.
 */
export function listActivityModes(schoolId: string, actorType: "teacher" | "student") {
  return db().activity.findMany({
    where: { schoolId, actorType },
    select: {
      id: true,
      mode: true,
      status: true,
      version: true,
      selfOpenScenes: true,
      guideSessions: { where: { endedAt: null }, orderBy: { id: "asc" }, select: { id: true } },
    },
  });
}
