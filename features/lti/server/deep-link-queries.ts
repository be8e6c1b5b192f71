import "server-only";
import { db } from "@/platform/db";

/** Whether `userId` has this deep linking request waiting, alive. */
export async function deepLinkRequestWaiting(tokenHash: string, userId: string): Promise<boolean> {
  const row = await db().ltiDeepLinkRequest.findFirst({
    where: { tokenHash, userId, expiresAt: { gt: new Date() } },
    select: { tokenHash: true },
  });
  return row !== null;
}

/** Whose activities a staff member may link: a teacher's school's, a manager's academy's schools'. */
export interface Picker {
  role: "teacher" | "manager";
  schoolId: string | null;
  academyId: string | null;
}

function scopeOf(picker: Picker) {
  if (picker.role === "teacher") return picker.schoolId ? { schoolId: picker.schoolId } : null;
  return picker.academyId ? { school: { academyId: picker.academyId } } : null;
}

/** The active activities the picker may link, latest first, with their school's name (a manager sees several). */
export async function pickableActivities(picker: Picker) {
  const scope = scopeOf(picker);
  if (!scope) return [];
  return db().activity.findMany({
    where: { ...scope, status: "active" },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
    select: { id: true, title: true, mode: true, school: { select: { name: true } } },
  });
}

/** One active activity the picker may link (null: none such, another school's or academy's, archived). */
export async function pickableActivity(picker: Picker, activityId: string) {
  const scope = scopeOf(picker);
  if (!scope) return null;
  return db().activity.findFirst({
    where: { ...scope, id: activityId, status: "active" },
    select: { id: true, title: true },
  });
}
