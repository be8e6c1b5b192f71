import "server-only";
import { db } from "@/platform/db";

/** Keeps a login initiation's state (by its hash) and nonce until `expiresAt`; expired ones go on the way. */
export async function saveLaunchState(row: { stateHash: string; nonce: string; platformId: string; expiresAt: Date }) {
  await db().$transaction([
    db().ltiLaunchState.deleteMany({ where: { expiresAt: { lt: new Date() } } }),
    db().ltiLaunchState.create({ data: row }),
  ]);
}

/** Takes a state once: its nonce and platform while it has not expired (null: unknown, used or expired). */
export async function takeLaunchState(stateHash: string): Promise<{ nonce: string; platformId: string } | null> {
  const [row] = await db().$queryRaw<{ nonce: string; platform_id: string; live: boolean }[]>`
    delete from lti_launch_states where state_hash = ${stateHash}
    returning nonce, platform_id::text, expires_at > now() as live`;
  return row?.live ? { nonce: row.nonce, platformId: row.platform_id } : null;
}
