import "server-only";
import { db } from "@/platform/db";

export interface DeepLinkRow {
  tokenHash: string;
  userId: string;
  platformId: string;
  deploymentId: string;
  returnUrl: string;
  data: string | null;
  expiresAt: Date;
}

/** Keeps a deep linking request until its pick or `expiresAt`; expired ones go on the way. */
export async function saveDeepLinkRequest(row: DeepLinkRow) {
  await db().$transaction([
    db().ltiDeepLinkRequest.deleteMany({ where: { expiresAt: { lt: new Date() } } }),
    db().ltiDeepLinkRequest.create({ data: row }),
  ]);
}

/** Takes the request once, when it is `userId`'s and alive (null: unknown, someone else's, used or expired). */
export async function takeDeepLinkRequest(tokenHash: string, userId: string) {
  const [row] = await db().$queryRaw<
    { platform_id: string; deployment_id: string; return_url: string; data: string | null; live: boolean }[]
  >`
    delete from lti_deep_link_requests where token_hash = ${tokenHash} and user_id = ${userId}::uuid
    returning platform_id::text, deployment_id, return_url, data, expires_at > now() as live`;
  if (!row?.live) return null;
  return { platformId: row.platform_id, deploymentId: row.deployment_id, returnUrl: row.return_url, data: row.data };
}
