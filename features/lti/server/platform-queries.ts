import "server-only";
import { db } from "@/platform/db";

const PLATFORM = {
  id: true,
  academyId: true,
  issuer: true,
  clientId: true,
  deploymentIds: true,
  authLoginUrl: true,
  tokenUrl: true,
  jwksUrl: true,
  identityClaim: true,
} as const;

/** The registered platform an issuer and (when given) client id name; with several, the one client id must be given. */
export async function findPlatform(issuer: string, clientId: string | null) {
  const rows = await db().ltiPlatform.findMany({
    where: { issuer, ...(clientId ? { clientId } : {}) },
    select: PLATFORM,
    take: 2,
  });
  return rows.length === 1 ? rows[0]! : null;
}
export type LtiPlatform = NonNullable<Awaited<ReturnType<typeof findPlatform>>>;

/** The academy's platform as its manager sees it (null: none registered). */
export function getAcademyLtiPlatform(academyId: string) {
  return db().ltiPlatform.findUnique({ where: { academyId }, select: PLATFORM });
}
export type LtiPlatformView = NonNullable<Awaited<ReturnType<typeof getAcademyLtiPlatform>>>;
