import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { audit } from "@/platform/audit/log";
import { publicUrl } from "@/platform/env";
import { errorField, log } from "@/platform/ops/log";
import { sendMail } from "@/platform/mail/send";
import type { RequestClient } from "@/platform/security/client-ip";
import { insertResetToken, redeemResetToken } from "./commands";
import { hashPassword } from "./password";
import { findUserByEmail } from "./queries";
import { countAttempt, LIMITS } from "./throttle";

export const RESET_TTL_MS = 60 * 60 * 1000;
const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");

/** A one-time link that sets the user's password, from the configured public address (never a request's Host). */
export async function createResetLink(userId: string, ttlMs = RESET_TTL_MS): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await insertResetToken(userId, sha256(token), new Date(Date.now() + ttlMs));
  return `${publicUrl()}/auth/reset?token=${token}`;
}

/**
 * Sends a one-time reset link to a teacher or manager. Says nothing about
 * whether the account exists (the caller always shows the same message);
 * students' passwords are reset by their teacher, so they get no mail. The
 * link is built from the configured public address (AUTH_URL) only.
 */
export async function requestPasswordReset(
  email: string,
  mailText: (url: string) => { subject: string; text: string },
  client?: RequestClient,
) {
  // every request counts, atomically before anything else: at most 10 mails per account and 15 minutes
  const { count } = await countAttempt({ kind: "account", value: `reset:${email}` });
  if (count > LIMITS.account) return;
  const user = await findUserByEmail(email);
  if (!user || user.disabled || user.role === "student") return;
  const url = await createResetLink(user.id);
  try {
    await sendMail({ to: email, ...mailText(url) });
  } catch (error) {
    // the same answer as for an unknown address (the caller's): the operator learns it from the log
    // metrics: mail failure
    log().error({ event: "mail.failed", userId: user.id, ...errorField(error) }, "password reset mail not sent");
    return;
  }
  await audit({
    action: "password.reset.requested",
    actorId: user.id,
    schoolId: user.schoolId,
    academyId: user.academyId,
    ...client,
  });
}

/** Sets a new password with a reset token: one use, before it expires. */
export async function resetPasswordWithToken(
  token: string,
  password: string,
  client?: RequestClient,
): Promise<"ok" | "expiredActionCode"> {
  const tokenHash = sha256(token);
  const passwordHash = await hashPassword(password);
  return redeemResetToken(tokenHash, passwordHash, client);
}
