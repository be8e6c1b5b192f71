import "server-only";
import { db } from "@/platform/db";

/** A passkey ceremony's purpose: adding one on the settings page, or signing in with one at /auth/second-factor. */
export type ChallengePurpose = "register" | "signin";

/** Keeps the challenge of a ceremony on this device session (replacing one under way), valid for `seconds`. */
export async function saveChallenge(sid: string, purpose: ChallengePurpose, challenge: string, seconds: number) {
  await db().$executeRaw`
    insert into webauthn_challenges (device_session_id, purpose, challenge, expires_at)
    values (${sid}::uuid, ${purpose}, ${challenge}, now() + make_interval(secs => ${seconds}))
    on conflict (device_session_id, purpose) do update set challenge = excluded.challenge, expires_at = excluded.expires_at`;
}

/**
 * Takes the device session's challenge for `purpose` away (so it serves one response at most, right or wrong) and
 * returns it when it had not expired; null otherwise.
 */
export async function spendChallenge(sid: string, purpose: ChallengePurpose): Promise<string | null> {
  const rows = await db().$queryRaw<{ challenge: string; live: boolean }[]>`
    delete from webauthn_challenges where device_session_id = ${sid}::uuid and purpose = ${purpose}
    returning challenge, (expires_at > now()) as live`;
  return rows[0]?.live ? rows[0].challenge : null;
}

export interface NewPasskey {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  name: string;
}

/** Saves a verified new passkey of the person; false when that credential is already registered (to anyone). */
export async function insertPasskey(userId: string, key: NewPasskey): Promise<boolean> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    insert into passkeys (user_id, credential_id, public_key, counter, transports, name)
    values (${userId}::uuid, ${key.credentialId}, ${Buffer.from(key.publicKey)}, ${key.counter}, ${key.transports},
            ${key.name})
    on conflict (credential_id) do nothing returning id::text`;
  return rows.length === 1;
}

/**
 * Records a use of the passkey: its new signature counter and the time, only if the counter is still the one the
 * check read (two responses racing: one wins). Whether it was recorded.
 */
export async function recordPasskeyUse(id: string, seenCounter: number, newCounter: number): Promise<boolean> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    update passkeys set counter = ${newCounter}, last_used_at = now()
    where id = ${id}::uuid and counter = ${seenCounter} returning id::text`;
  return rows.length === 1;
}

/** Removes one passkey of the person; its name when it was theirs. */
export async function deletePasskey(userId: string, id: string): Promise<string | null> {
  const rows = await db().$queryRaw<{ name: string }[]>`
    delete from passkeys where id = ${id}::uuid and user_id = ${userId}::uuid returning name`;
  return rows[0]?.name ?? null;
}
