import "server-only";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";

/**
 * Binds the academy to the Microsoft Entra ID tenant `tenantId` (null: unbinds it): from then on a Microsoft sign-in
 * of its people is accepted only with a token of that tenant (platform/auth/oidc.ts). In the sign-in log as a change.
 */
export async function setEntraTenant(
  academyId: string,
  tenantId: string | null,
  by: { actorId: string } | { via: "cli" },
): Promise<ActionResult<null>> {
  const { count } = await db().academy.updateMany({ where: { id: academyId }, data: { entraTenantId: tenantId } });
  if (count !== 1) return fail("NOT_FOUND");
  await audit({
    action: "academy.entraTenant",
    actorId: "actorId" in by ? by.actorId : undefined,
    academyId,
    targetType: "academy",
    targetId: academyId,
    meta: { tenantId, ...("via" in by ? { via: by.via } : {}) },
  });
  return ok(null);
}

/**
 * The academy's second-factor policy (features/people/shared/second-factor-policy.ts; enforced at each staff sign-in:
 * platform/auth/second-factor.ts). In the sign-in log as a change.
 */
export async function setSecondFactorPolicy(
  academyId: string,
  policy: { require: boolean; graceUntil: Date | null },
  actorId: string,
): Promise<ActionResult<null>> {
  const { count } = await db().academy.updateMany({
    where: { id: academyId },
    data: { requireSecondFactor: policy.require, secondFactorGraceUntil: policy.graceUntil },
  });
  if (count !== 1) return fail("NOT_FOUND");
  await audit({
    action: "academy.secondFactorPolicy",
    actorId,
    academyId,
    targetType: "academy",
    targetId: academyId,
    meta: { require: policy.require, graceUntil: policy.graceUntil?.toISOString() ?? null },
  });
  return ok(null);
}
