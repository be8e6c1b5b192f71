"use server";
import { AuthError, CredentialsSignin } from "next-auth";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { audit } from "@/platform/audit/log";
import { env } from "@/platform/env";
import { hashCode } from "@/platform/auth/signin-code-crypto";
import { auth, signIn, signOut } from "./config";
import { LANGUAGE_CHOICE_COOKIE, LANGUAGE_COOKIE } from "@/platform/i18n/languages";
import { OPEN_WINDOW_PAGE, withFramePass } from "@/platform/security/frame-pass";
import { clearedFramedSessionCookie, PENDING_CODE_COOKIE, sessionCookieConfig } from "./cookies";
import { decodeFailure, type SigninErrorCode } from "./errors";
import { refusedSigninPath, startingSignin } from "./oidc";
import { findCodeHolder, findUserByEmail } from "./queries";
import { areaOf, homeOf } from "./roles";
import { safeFromPath, signinInputSchema } from "./schema";
import { sessionFrameAncestors } from "./session";
import { errorField, log } from "@/platform/ops/log";

export interface SigninState {
  error: SigninErrorCode | null;
  retryMinutes?: number;
  email: string;
}

/** Runs a next-auth credentials sign-in and turns its failure into one of our codes. */
async function attempt(provider: "password" | "code", fields: Record<string, string>) {
  try {
    await signIn(provider, { ...fields, redirect: false });
    return null;
  } catch (error) {
    if (error instanceof CredentialsSignin)
      return decodeFailure(error.code) ?? { code: "authFailed" as const, retryMinutes: 0 };
    if (error instanceof AuthError) return { code: "authFailed" as const, retryMinutes: 0 };
    throw error;
  }
}

/** E-mail + password sign-in (the form on /signin). */
export async function signInWithPassword(_prev: SigninState, form: FormData): Promise<SigninState> {
  const email = String(form.get("email") ?? "");
  const parsed = signinInputSchema.safeParse({ email, password: form.get("password") });
  if (!parsed.success) return { error: "invalidEmail", email };
  const failure = await attempt("password", { email: parsed.data.email, password: parsed.data.password });
  if (failure) return { error: failure.code, retryMinutes: failure.retryMinutes, email };
  const user = await findUserByEmail(parsed.data.email);
  if (!user) return { error: "authFailed", email };
  const from = safeFromPath(form.get("from"));
  redirect(from && areaOf(from) === user.role ? from : homeOf(user.role));
}

export type CodeSigninResult =
  | {
      ok: true;
      name: string | null;
      nameKana: string | null;
      nickname: string | null;
      school: { name: string; nameKana: string } | null;
    }
  | { ok: false; error: SigninErrorCode; retryMinutes?: number };

const codeInput = z.string().max(64);

/**
 * QR sign-in (/auth/auth-with-code): signs in with the scanned code (kept in a
 * cookie by proxy.ts, used once) and returns who it is, for "is this you?".
 */
export async function signInWithCode(): Promise<CodeSigninResult> {
  const jar = await cookies();
  const pending = jar.get(PENDING_CODE_COOKIE)?.value;
  jar.delete({ name: PENDING_CODE_COOKIE, path: "/auth" });
  const parsed = codeInput.safeParse(pending);
  if (!parsed.success) return { ok: false, error: "invalidCode" };
  const failure = await attempt("code", { code: parsed.data });
  if (failure) return { ok: false, error: failure.code, retryMinutes: failure.retryMinutes };
  // The session cookie is only set on this response, so find the student by the code itself.
  const user = await findCodeHolder(hashCode(parsed.data, env().SIGNIN_CODE_KEY));
  if (!user) return { ok: false, error: "authFailed" };
  return { ok: true, ...user.user };
}

/**
 * Signs out and lands on /signin; a launched session (its portal's origins in the token) lands on the page that
 * says to open us in a new window, framed by its portal (the sign-in form never is: platform/security/frame-pass.ts),
 * and its partitioned cookie is cleared in its partition.
 */
export async function signOutAction(): Promise<void> {
  const session = await auth().catch(() => null);
  const portal = await sessionFrameAncestors().catch(() => []);
  try {
    await signOut({ redirect: false });
    if (portal.length) (await cookies()).set(clearedFramedSessionCookie(sessionCookieConfig(env().AUTH_URL).name));
    // the display language was this person's: the next one on a shared device starts from the default
    (await cookies()).delete(LANGUAGE_COOKIE);
    (await cookies()).delete(LANGUAGE_CHOICE_COOKIE);
    if (session?.user?.id) await audit({ action: "signout", actorId: session.user.id });
  } catch (error) {
    log().error({ event: "signout.failed", ...errorField(error) }, "sign-out failed");
  }
  redirect(portal.length ? withFramePass(OPEN_WINDOW_PAGE, portal, env().AUTH_SECRET) : "/signin");
}

/**
 * Sign-in with Google, Microsoft or the academy's own provider (OpenID Connect, the form's `provider`): off to the
 * provider, back to `from` or the own home.
 */
export async function signInWithProvider(form: FormData): Promise<void> {
  const provider = form.get("provider");
  const from = safeFromPath(form.get("from"));
  const start = () => signIn(String(provider), { redirectTo: from ?? "/dashboard" });
  if (typeof provider !== "string" || !(await startingSignin(provider, start)))
    redirect(refusedSigninPath(String(provider ?? ""), "providerFailed"));
}
