import "server-only";
import { z } from "zod";
import type { Actor } from "@/platform/auth/session";
import { authorizeSchool } from "@/platform/auth/scope";
import { classKeyOf } from "../shared/klass";
import { findSchoolActivity, findStudentActivity, findStudentClass } from "./access-queries";

/**
 * Who may follow an activity live: a student of its school (a student-actor,
 * active activity), or staff in scope (a teacher of the school; a manager of
 * its academy, naming the school). null otherwise: never revealed.
 */
export async function liveAccess(
  actor: Actor,
  activityId: string,
  schoolId?: string | null,
): Promise<{ kind: "student" | "staff"; schoolId: string } | null> {
  if (!z.uuid().safeParse(activityId).success) return null;
  if (actor.role === "student") {
    if (!actor.schoolId) return null;
    const found = await findStudentActivity(activityId, actor.schoolId);
    return found ? { kind: "student", schoolId: actor.schoolId } : null;
  }
  const school = await authorizeSchool(actor, schoolId ?? undefined);
  if (!school) return null;
  const found = await findSchoolActivity(activityId, school);
  return found ? { kind: "staff", schoolId: school } : null;
}

/** A student's class key (features/play/shared/klass.ts): which class's live sessions they join. */
export async function studentClassKey(userId: string): Promise<string | null> {
  const d = await findStudentClass(userId);
  return classKeyOf(d?.grade, d?.className);
}
