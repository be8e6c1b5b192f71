import "server-only";
import QRCode from "qrcode";
import { audit } from "@/platform/audit/log";
import { env } from "@/platform/env";
import type { RequestClient } from "@/platform/security/client-ip";
import { decryptCode, encryptCode, hashCode } from "./signin-code-crypto";
import { replaceRecoveryCodes, saveTotpSecret, spendRecoveryCode, spendTotpStep } from "./second-factor-commands";
import { type FactorState, findConfirmedTotp, readFactorState } from "./second-factor-queries";
import { homeOf, isRole } from "./roles";
import { safeFromPath } from "./schema";
import { recordSuccess, reserveAttempt } from "./throttle";
import { isTotpCodeShape, matchTotp, newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, totpUri } from "./totp";

/**
 * A teacher's or manager's second factor: an authenticator app (TOTP) and one-time recovery codes, or one or more
 * passkeys (passkey.ts), any of them enough. A staff sign-in
 * (password or provider) of someone who has one, or whose academy requires one after its grace end, opens its
 * device session pending (device_sessions.second_factor_pending): every check of a signed-in request refuses it
 * (platform/auth/device-sessions.ts) until /auth/second-factor takes a code or enrols an app. A provider whose ID
 * token says it checked a second factor (`amr`: mfa, otp or hwk) counts. Students are never asked.
 */

/** Who a factor belongs to, for the audit log. */
export interface FactorOwner {
  id: string;
  schoolId: string | null;
  academyId: string | null;
}

const AMR_SECOND_FACTOR = ["mfa", "otp", "hwk"];

/** The provider's ID token says the person used a second factor there (RFC 8176 `amr`). */
export function amrAssertsSecondFactor(profile: unknown): boolean {
  const amr = (profile as { amr?: unknown } | undefined)?.amr;
  return Array.isArray(amr) && amr.some((m) => typeof m === "string" && AMR_SECOND_FACTOR.includes(m.toLowerCase()));
}

/** Where a person stands with their academy's policy: has a factor, need not, is asked (grace), or must enrol now. */
export function policyStanding(state: FactorState, now = new Date()): "enrolled" | "free" | "grace" | "due" {
  if (state.totp || state.passkeys > 0) return "enrolled";
  if (!state.requireSecondFactor || state.role === "student") return "free";
  return state.graceUntil && state.graceUntil > now ? "grace" : "due";
}

/** Whether a staff sign-in must wait for a second factor (or enrol one) before it is signed in. */
export async function secondFactorDue(userId: string, providerAsserted: boolean): Promise<boolean> {
  if (providerAsserted) return false;
  const state = await readFactorState(userId);
  if (!state || state.role === "student") return false;
  const standing = policyStanding(state);
  return standing === "enrolled" || standing === "due";
}

/** Where a sign-in goes once it has its second factor: `from` when in the person's area, else their home. */
export function afterSecondFactor(role: string, from: unknown): string {
  const home = isRole(role) ? homeOf(role) : "/signin";
  const path = safeFromPath(from);
  return path && path.startsWith(home.replace(/home$/, "")) ? path : home;
}

export type FactorCheck =
  | { ok: true; method: "totp" | "recovery" }
  | { ok: false; code: "wrongCode" | "tooManyRequests"; retryMinutes?: number };

/** Checks a code of the person's app, or one of their recovery codes (spent on use), throttled per person. */
export async function checkSecondFactor(
  owner: FactorOwner,
  input: string,
  client: RequestClient,
): Promise<FactorCheck> {
  const code = input.trim();
  const method = isTotpCodeShape(code) ? "totp" : "recovery";
  const entry = { actorId: owner.id, schoolId: owner.schoolId, academyId: owner.academyId, ...client };
  const subject = { kind: "factor", value: owner.id } as const;
  const reserved = await reserveAttempt(subject, client.ip);
  if (!reserved.ok) {
    await audit({ action: `signin.${method}.throttled`, ...entry, meta: { reason: "tooManyRequests" } });
    return { ok: false, code: "tooManyRequests", retryMinutes: reserved.retryMinutes };
  }
  const passed = method === "totp" ? await spendTotpCode(owner.id, code) : await spendRecovery(owner.id, code);
  if (!passed) {
    await audit({ action: `signin.${method}.failure`, ...entry, meta: { reason: "wrongCode" } });
    return { ok: false, code: "wrongCode" };
  }
  await recordSuccess(subject, client.ip);
  await audit({ action: `signin.${method}.success`, ...entry });
  return { ok: true, method };
}

async function spendTotpCode(userId: string, code: string): Promise<boolean> {
  const factor = await findConfirmedTotp(userId);
  if (!factor) return false;
  const step = matchTotp(decryptCode(factor.secretSealed, env().SIGNIN_CODE_KEY, "totp"), code);
  return step !== null && (await spendTotpStep(userId, step));
}

async function spendRecovery(userId: string, code: string): Promise<boolean> {
  const plain = normalizeRecoveryCode(code);
  return plain !== null && (await spendRecoveryCode(userId, hashCode(plain, env().SIGNIN_CODE_KEY, "recovery")));
}

export interface TotpEnrolment {
  secret: string;
  uri: string;
  qr: string;
}

/** A new app secret waiting for its first code: its QR code (a data URL) and the secret to type. Null: one is set up. */
export async function startTotpEnrolment(userId: string, label: string): Promise<TotpEnrolment | null> {
  const secret = newTotpSecret();
  if (!(await saveTotpSecret(userId, encryptCode(secret, env().SIGNIN_CODE_KEY, "totp")))) return null;
  const uri = totpUri(secret, label);
  const qr = await QRCode.toDataURL(uri, { width: 240, margin: 2, errorCorrectionLevel: "M" });
  return { secret, uri, qr };
}

/**
 * The app's first code confirms it (throttled like a sign-in code): it becomes the person's factor, with ten new
 * recovery codes, returned once. Null: the code is wrong or no enrolment waits.
 */
export async function confirmTotpEnrolment(
  owner: FactorOwner,
  code: string,
  client: RequestClient,
): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; code: "wrongCode" | "tooManyRequests" }> {
  const subject = { kind: "factor", value: owner.id } as const;
  if (!(await reserveAttempt(subject, client.ip)).ok) return { ok: false, code: "tooManyRequests" };
  const state = await readFactorState(owner.id);
  const secret = state?.pendingSecret ? decryptCode(state.pendingSecret, env().SIGNIN_CODE_KEY, "totp") : null;
  const step = secret ? matchTotp(secret, code.trim()) : null;
  if (step === null || !(await spendTotpStep(owner.id, step, true))) return { ok: false, code: "wrongCode" };
  await recordSuccess(subject, client.ip);
  const recoveryCodes = await renewRecoveryCodes(owner.id);
  await audit({
    action: "factor.totp.added",
    actorId: owner.id,
    schoolId: owner.schoolId,
    academyId: owner.academyId,
    ...client,
  });
  return { ok: true, recoveryCodes };
}

/** Ten new recovery codes for the person (the old ones stop working), returned once; only their hashes are kept. */
export async function renewRecoveryCodes(userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  const key = env().SIGNIN_CODE_KEY;
  await replaceRecoveryCodes(
    userId,
    codes.map((c) => hashCode(normalizeRecoveryCode(c)!, key, "recovery")),
  );
  return codes;
}
