import "server-only";
import { sealSecret } from "@/platform/auth/secret-box";
import { db } from "@/platform/db";
import { env } from "@/platform/env";
import { type ActionResult, fail, ok } from "@/platform/errors";
import { auditAcademyChange, type By } from "@/features/people/server/academy-commands";
import type { LrsInput } from "@/features/lti/shared/lrs-input";

/**
 * Sets or replaces the academy's LRS (features/lti/README.md "Learning records"): the credentials are sealed
 * (platform/auth/secret-box.ts, purpose "lrs-credentials") and never read back to anyone. NOT_FOUND: no such academy.
 * In the sign-in log as a change (without the credentials).
 */
export async function setLrs(academyId: string, input: LrsInput, by: By): Promise<ActionResult<null>> {
  const academy = await db().academy.findUnique({ where: { id: academyId }, select: { id: true } });
  if (!academy) return fail("NOT_FOUND");
  const credentialsSealed = sealSecret(`${input.key}:${input.secret}`, env().SIGNIN_CODE_KEY, "lrs-credentials");
  const row = { endpoint: input.endpoint, credentialsSealed, includeNames: input.includeNames };
  await db().academyLrs.upsert({ where: { academyId }, create: { academyId, ...row }, update: row });
  await auditAcademyChange("academy.lrs", academyId, by, {
    endpoint: input.endpoint,
    includeNames: input.includeNames,
  });
  return ok(null);
}

/** Removes the academy's LRS: no statement is made for it from now on (those waiting are not sent). */
export async function removeLrs(academyId: string, by: By): Promise<ActionResult<null>> {
  const { count } = await db().academyLrs.deleteMany({ where: { academyId } });
  if (count !== 1) return fail("NOT_FOUND");
  await auditAcademyChange("academy.lrs", academyId, by, { removed: true });
  return ok(null);
}
