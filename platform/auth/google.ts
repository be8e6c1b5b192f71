import "server-only";
import type { Account, Profile } from "next-auth";
import { audit } from "@/platform/audit/log";
import { env } from "@/platform/env";
import type { RequestClient } from "@/platform/security/client-ip";
import { countSigninFailure } from "@/platform/ops/metrics";
import { linkAccount, recordSignIn } from "./commands";
import type { SigninErrorCode } from "./errors";
import { findUserByEmail } from "./queries";

export function googleEnabled(): boolean {
  const { GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } = env();
  return Boolean(GOOGLE_CLIENT_ID && GOOGLE_CLIENT_SECRET);
}

type Match =
  { ok: true; user: { id: string; role: "student" | "teacher" | "manager" } } | { ok: false; code: SigninErrorCode };

/**
 * The Manabiya user for a Google (OpenID Connect) sign-in: the verified e-mail
 * must belong to an existing, enabled user. On the first match the Google
 * account is linked to the user (accounts table) and the sign-in recorded in the sign-in log (with `client`).
 */
export async function matchGoogleAccount(
  account: Account,
  profile: Profile | undefined,
  options: { link: boolean; client?: RequestClient } = { link: true },
): Promise<Match> {
  const email = typeof profile?.email === "string" ? profile.email.trim().toLowerCase() : null;
  const verified = profile?.email_verified === true || String(profile?.email_verified) === "true";
  const user = email ? await findUserByEmail(email) : null;
  const fail = async (code: SigninErrorCode) => {
    if (options.link) {
      countSigninFailure("google", code);
      await audit({
        action: "signin.google.failure",
        actorId: user?.id,
        schoolId: user?.schoolId,
        academyId: user?.academyId,
        ...options.client,
        meta: { email, reason: code },
      });
    }
    return { ok: false as const, code };
  };
  if (!email || !verified || !user) return fail("userNotFound");
  if (user.disabled) return fail("userDisabled");
  if (options.link) {
    await linkAccount(user.id, account);
    await recordSignIn(user.id);
    await audit({
      action: "signin.google.success",
      actorId: user.id,
      schoolId: user.schoolId,
      academyId: user.academyId,
      ...options.client,
    });
  }
  return { ok: true, user: { id: user.id, role: user.role } };
}
