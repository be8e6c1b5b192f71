import "server-only";
import { db } from "@/platform/db";

/** A person's second factor as the sign-in and the settings see it, with their academy's policy. */
export interface FactorState {
  role: string;
  email: string | null;
  /** the authenticator app is set up (confirmed by a first code) */
  totp: boolean;
  /** the sealed secret of an app waiting for its first code (null: none waits) */
  pendingSecret: string | null;
  recoveryLeft: number;
  /** how many passkeys the person has registered (platform/auth/passkey.ts) */
  passkeys: number;
  requireSecondFactor: boolean;
  graceUntil: Date | null;
}

/** The person's factors and their academy's policy (null when there is no such person). */
export async function readFactorState(userId: string): Promise<FactorState | null> {
  const [row] = await db().$queryRaw<FactorState[]>`
    select u.role::text as role, u.email,
           (t.confirmed_at is not null) as totp,
           case when t.confirmed_at is null then t.secret_sealed end as "pendingSecret",
           (select count(*)::int from recovery_codes r where r.user_id = u.id and r.used_at is null) as "recoveryLeft",
           (select count(*)::int from passkeys p where p.user_id = u.id) as passkeys,
           coalesce(a.require_second_factor, false) as "requireSecondFactor",
           a.second_factor_grace_until as "graceUntil"
    from users u
    left join schools s on s.id = u.school_id
    left join academies a on a.id = coalesce(u.academy_id, s.academy_id)
    left join totp_factors t on t.user_id = u.id
    where u.id = ${userId}::uuid`;
  return row ?? null;
}

/** The confirmed authenticator's sealed secret and last accepted step (null: none set up). */
export function findConfirmedTotp(userId: string) {
  return db().totpFactor.findFirst({
    where: { userId, confirmedAt: { not: null } },
    select: { secretSealed: true, lastStep: true },
  });
}

/**
 * The sign-in waiting for its second factor that this session token names: the device `sid` of `userId` not ended,
 * pending, of the user's current session version, the user enabled. Null otherwise.
 */
export async function findPendingSignin(userId: string, sv: number, sid: string) {
  const [row] = await db().$queryRaw<
    { id: string; role: string; email: string | null; schoolId: string | null; academyId: string | null }[]
  >`
    select u.id::text, u.role::text as role, u.email, u.school_id::text as "schoolId",
           coalesce(u.academy_id, s.academy_id)::text as "academyId"
    from device_sessions d join users u on u.id = d.user_id left join schools s on s.id = u.school_id
    where d.id = ${sid}::uuid and d.user_id = ${userId}::uuid and d.ended_at is null and d.second_factor_pending
      and u.session_version = ${sv} and not u.disabled and u.role <> 'student'`;
  return row ?? null;
}
