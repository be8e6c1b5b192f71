import "server-only";
import { db } from "@/platform/db";

/** Keeps a new authenticator secret waiting for its first code; refused (false) while a confirmed one exists. */
export async function saveTotpSecret(userId: string, secretSealed: string): Promise<boolean> {
  const rows = await db().$queryRaw<{ user_id: string }[]>`
    insert into totp_factors (user_id, secret_sealed) values (${userId}::uuid, ${secretSealed})
    on conflict (user_id) do update set secret_sealed = excluded.secret_sealed, created_at = now()
      where totp_factors.confirmed_at is null
    returning user_id::text`;
  return rows.length === 1;
}

/**
 * Spends the time step of an accepted code: true when it is later than the last one accepted (so no code works
 * twice), atomically. `confirm`: the app waiting for its first code becomes the person's, with this step.
 */
export async function spendTotpStep(userId: string, step: number, confirm = false): Promise<boolean> {
  const rows = confirm
    ? await db().$queryRaw<{ user_id: string }[]>`
        update totp_factors set confirmed_at = now(), last_step = ${step}
        where user_id = ${userId}::uuid and confirmed_at is null returning user_id::text`
    : await db().$queryRaw<{ user_id: string }[]>`
        update totp_factors set last_step = ${step}
        where user_id = ${userId}::uuid and confirmed_at is not null and (last_step is null or last_step < ${step})
        returning user_id::text`;
  return rows.length === 1;
}

/** The person's recovery codes become these (by hash); the old ones stop working. */
export async function replaceRecoveryCodes(userId: string, hashes: string[]): Promise<void> {
  await db().$transaction([
    db().recoveryCode.deleteMany({ where: { userId } }),
    db().recoveryCode.createMany({ data: hashes.map((codeHash) => ({ userId, codeHash })) }),
  ]);
}

/** Spends one recovery code (by hash): true when it was the person's and unused, atomically. */
export async function spendRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    update recovery_codes set used_at = now()
    where user_id = ${userId}::uuid and code_hash = ${codeHash} and used_at is null returning id::text`;
  return rows.length === 1;
}

/** The device's sign-in has its second factor: it is signed in from now on. */
export async function passSecondFactor(userId: string, sid: string): Promise<boolean> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    update device_sessions set second_factor_pending = false
    where id = ${sid}::uuid and user_id = ${userId}::uuid and ended_at is null and second_factor_pending
    returning id::text`;
  return rows.length === 1;
}

/** Removes the person's authenticator app and recovery codes (their passkeys stay); whether they had any. */
export async function deleteTotpFactor(userId: string): Promise<boolean> {
  const [totp, codes] = await db().$transaction([
    db().totpFactor.deleteMany({ where: { userId } }),
    db().recoveryCode.deleteMany({ where: { userId } }),
  ]);
  return totp.count + codes.count > 0;
}

/** Removes every second factor of the person: app, recovery codes and passkeys; whether they had any. */
export async function deleteSecondFactors(userId: string): Promise<boolean> {
  const [totp, codes, passkeys] = await db().$transaction([
    db().totpFactor.deleteMany({ where: { userId } }),
    db().recoveryCode.deleteMany({ where: { userId } }),
    db().passkey.deleteMany({ where: { userId } }),
  ]);
  return totp.count + codes.count + passkeys.count > 0;
}
