import "server-only";
import { findAcademySchool } from "./queries";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare const authorised: unique symbol;
/** A school id that passed the scope check for the acting user (only scope.ts makes them). */
export type AuthorizedSchoolId = string & { readonly [authorised]: true };

export interface ScopeActor {
  id: string;
  role: "student" | "teacher" | "manager";
  schoolId: string | null;
  academyId: string | null;
}

/**
 * docs/product-design.md "Roles and scope": a teacher acts on their own school only; a
 * manager on any school of their academy; students manage nothing. Returns
 * null when the actor may not act on that school (or it does not exist).
 */
export async function authorizeSchool(
  actor: ScopeActor,
  schoolId: string | null | undefined,
): Promise<AuthorizedSchoolId | null> {
  if (actor.role === "teacher") {
    if (!actor.schoolId) return null;
    if (schoolId && schoolId !== actor.schoolId) return null;
    return actor.schoolId as AuthorizedSchoolId;
  }
  if (actor.role === "manager" && actor.academyId && schoolId && UUID.test(schoolId)) {
    const school = await findAcademySchool(schoolId, actor.academyId);
    return school ? (school.id as AuthorizedSchoolId) : null;
  }
  return null;
}
