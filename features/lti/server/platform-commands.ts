import "server-only";
import { db, isUniqueViolation } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import { auditAcademyChange, type By } from "@/features/people/server/academy-commands";
import type { LtiPlatformInput } from "@/features/lti/shared/platform-input";

/**
 * Registers or replaces the academy's LTI platform. CONFLICT: another academy registered the same issuer and client
 * id; NOT_FOUND: no such academy. In the sign-in log as a change.
 */
export async function setLtiPlatform(academyId: string, input: LtiPlatformInput, by: By): Promise<ActionResult<null>> {
  const academy = await db().academy.findUnique({ where: { id: academyId }, select: { id: true } });
  if (!academy) return fail("NOT_FOUND");
  const taken = await db().ltiPlatform.findFirst({
    where: { issuer: input.issuer, clientId: input.clientId, academyId: { not: academyId } },
    select: { id: true },
  });
  if (taken) return fail("CONFLICT", { clientId: ["taken"] });
  try {
    await db().ltiPlatform.upsert({ where: { academyId }, create: { academyId, ...input }, update: input });
  } catch (error) {
    // another academy registered the same issuer and client id since the check (the unique index has the last word)
    if (isUniqueViolation(error)) return fail("CONFLICT", { clientId: ["taken"] });
    throw error;
  }
  await auditAcademyChange("academy.ltiPlatform", academyId, by, { ...input });
  return ok(null);
}

/** Removes the academy's LTI platform: its launches are refused from now on. */
export async function removeLtiPlatform(academyId: string, by: By): Promise<ActionResult<null>> {
  const { count } = await db().ltiPlatform.deleteMany({ where: { academyId } });
  if (count !== 1) return fail("NOT_FOUND");
  await auditAcademyChange("academy.ltiPlatform", academyId, by, { removed: true });
  return ok(null);
}
