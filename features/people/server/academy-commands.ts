import "server-only";
import { audit } from "@/platform/audit/log";
import { db, isUniqueViolation } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import { env } from "@/platform/env";
import { sealSecret } from "@/platform/auth/secret-box";
import type { OidcProviderInput } from "@/features/people/shared/oidc-provider";

export type By = { actorId: string } | { via: "cli" };

/** A change to the academy's sign-in settings in the sign-in log: by its manager, or by the operator's CLI. */
export function auditAcademyChange(action: string, academyId: string, by: By, meta: Record<string, unknown>) {
  return audit({
    action,
    actorId: "actorId" in by ? by.actorId : undefined,
    academyId,
    targetType: "academy",
    targetId: academyId,
    meta: { ...meta, ...("via" in by ? { via: by.via } : {}) },
  });
}

/**
 * Binds the academy to the Microsoft Entra ID tenant `tenantId` (null: unbinds it): from then on a Microsoft sign-in
 * of its people is accepted only with a token of that tenant (platform/auth/oidc.ts). In the sign-in log as a change.
 */
export async function setEntraTenant(academyId: string, tenantId: string | null, by: By): Promise<ActionResult<null>> {
  const { count } = await db().academy.updateMany({ where: { id: academyId }, data: { entraTenantId: tenantId } });
  if (count !== 1) return fail("NOT_FOUND");
  await auditAcademyChange("academy.entraTenant", academyId, by, { tenantId });
  return ok(null);
}

/**
 * Sets the academy's own OpenID Connect provider (platform/auth/oidc.ts): created, or replaced keeping the sealed
 * client secret when none is given. CONFLICT: another academy uses the slug; VALIDATION: a new provider without a
 * secret. In the sign-in log as a change, without the secret.
 */
export async function setOidcProvider(
  academyId: string,
  input: OidcProviderInput,
  by: By,
): Promise<ActionResult<null>> {
  const sealed = input.clientSecret
    ? sealSecret(input.clientSecret, env().SIGNIN_CODE_KEY, "oidc-client-secret")
    : null;
  const { clientSecret: _, ...fields } = input;
  const academy = await db().academy.findUnique({
    where: { id: academyId },
    select: { oidcProvider: { select: { slug: true } } },
  });
  if (!academy) return fail("NOT_FOUND");
  if (!academy.oidcProvider && !sealed) return fail("VALIDATION", { clientSecret: ["required"] });
  const taken = await db().academyOidcProvider.findFirst({
    where: { slug: fields.slug, academyId: { not: academyId } },
    select: { academyId: true },
  });
  if (taken) return fail("CONFLICT", { slug: ["taken"] });
  try {
    // an upsert (one INSERT … ON CONFLICT): the same form sent twice at once saves once, neither is refused
    if (sealed)
      await db().academyOidcProvider.upsert({
        where: { academyId },
        create: { academyId, ...fields, clientSecretSealed: sealed },
        update: { ...fields, clientSecretSealed: sealed },
      });
    else if ((await db().academyOidcProvider.updateMany({ where: { academyId }, data: fields })).count === 0)
      return fail("VALIDATION", { clientSecret: ["required"] }); // removed meanwhile: a new provider needs its secret
  } catch (error) {
    // another academy took the slug since the check (the unique index has the last word)
    if (isUniqueViolation(error)) return fail("CONFLICT", { slug: ["taken"] });
    throw error;
  }
  await auditAcademyChange("academy.oidcProvider", academyId, by, { ...fields, secretChanged: Boolean(sealed) });
  return ok(null);
}

/** Removes the academy's own OpenID Connect provider (nobody signs in through it any more). */
export async function removeOidcProvider(academyId: string, by: By): Promise<ActionResult<null>> {
  const { count } = await db().academyOidcProvider.deleteMany({ where: { academyId } });
  if (count !== 1) return fail("NOT_FOUND");
  await auditAcademyChange("academy.oidcProvider", academyId, by, { removed: true });
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
