import "server-only";
import { db } from "@/platform/db";

/** The account whose OneRoster sourcedId a launch names, with its academy (a manager's, or its school's); null: none. */
export async function findLaunchPerson(sourcedId: string) {
  const user = await db().user.findUnique({
    where: { sourcedId },
    select: {
      id: true,
      role: true,
      academyId: true,
      schoolId: true,
      disabled: true,
      school: { select: { academyId: true } },
    },
  });
  if (!user) return null;
  const { school, ...person } = user;
  return { ...person, academyId: person.academyId ?? school?.academyId ?? null };
}

/** A registered platform by id (the one a launch state was made for). */
export function findPlatformById(id: string) {
  return db().ltiPlatform.findUnique({
    where: { id },
    select: {
      id: true,
      academyId: true,
      issuer: true,
      clientId: true,
      deploymentIds: true,
      authLoginUrl: true,
      jwksUrl: true,
      tokenUrl: true,
      identityClaim: true,
    },
  });
}

/** An activity's mode, when the activity belongs to the school `schoolId` (null: not there). */
export async function activityModeIn(activityId: string, schoolId: string | null) {
  if (!schoolId) return null;
  const row = await db().activity.findFirst({ where: { id: activityId, schoolId }, select: { mode: true } });
  return row?.mode ?? null;
}
