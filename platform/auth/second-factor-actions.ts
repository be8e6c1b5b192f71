"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { audit } from "@/platform/audit/log";
import { type ActionResult, fail, ok } from "@/platform/errors";
import { defineAction } from "@/platform/http/action";
import { requestClient } from "@/platform/security/client-ip";
import { deleteTotpFactor, passSecondFactor } from "./second-factor-commands";
import {
  afterSecondFactor,
  checkSecondFactor,
  confirmTotpEnrolment,
  type FactorOwner,
  renewRecoveryCodes,
  startTotpEnrolment,
  type TotpEnrolment,
} from "./second-factor";
import { readFactorState } from "./second-factor-queries";
import { getPendingSignin } from "./session";

const codeSchema = z.object({ code: z.string().trim().min(1).max(32) });

export interface SecondFactorState {
  error: "wrongCode" | "tooManyRequests" | null;
  retryMinutes?: number;
}

/** /auth/second-factor: a code of the person's app or a recovery code; right, the device is signed in. */
export async function verifySecondFactorAction(_prev: SecondFactorState, form: FormData): Promise<SecondFactorState> {
  const pending = await getPendingSignin();
  if (!pending) redirect("/signin");
  const parsed = codeSchema.safeParse({ code: form.get("code") });
  if (!parsed.success) return { error: "wrongCode" };
  const result = await checkSecondFactor(pending, parsed.data.code, requestClient(await headers()));
  if (!result.ok) return { error: result.code, retryMinutes: result.retryMinutes };
  await passSecondFactor(pending.id, pending.sid);
  redirect(afterSecondFactor(pending.role, form.get("from")));
}

/** A sign-in made to enrol (the academy's policy, past its grace end) and without an app: a new secret to scan. */
export async function startPendingEnrolmentAction(): Promise<ActionResult<TotpEnrolment>> {
  const pending = await getPendingSignin();
  if (!pending) return fail("UNAUTHENTICATED");
  const enrolment = await startTotpEnrolment(pending.id, pending.email ?? "");
  return enrolment ? ok(enrolment) : fail("CONFLICT");
}

/** The new app's first code: it becomes the person's factor and the device is signed in; the recovery codes, once. */
export async function confirmPendingEnrolmentAction(
  input: unknown,
): Promise<ActionResult<{ recoveryCodes: string[] }>> {
  const pending = await getPendingSignin();
  if (!pending) return fail("UNAUTHENTICATED");
  const parsed = codeSchema.safeParse(input);
  if (!parsed.success) return fail("VALIDATION");
  const result = await confirmTotpEnrolment(pending, parsed.data.code, requestClient(await headers()));
  if (!result.ok) return fail(result.code === "tooManyRequests" ? "RATE_LIMITED" : "VALIDATION");
  await passSecondFactor(pending.id, pending.sid);
  return ok({ recoveryCodes: result.recoveryCodes });
}

/** A teacher or manager starts setting up an authenticator app (refused while one is set up). */
export const startTotpEnrolmentAction = defineAction({
  name: "startTotpEnrolment",
  schema: z.object({}),
  roles: ["teacher", "manager"],
  run: async (_input, actor) => {
    const enrolment = await startTotpEnrolment(actor.id, actor.email ?? "");
    return enrolment ? ok(enrolment) : fail("CONFLICT");
  },
});

/** The app's first code confirms it; the ten recovery codes come back once. */
export const confirmTotpEnrolmentAction = defineAction({
  name: "confirmTotpEnrolment",
  schema: codeSchema,
  roles: ["teacher", "manager"],
  run: async ({ code }, actor) => {
    const result = await confirmTotpEnrolment(actor, code, requestClient(await headers()));
    if (!result.ok) return fail(result.code === "tooManyRequests" ? "RATE_LIMITED" : "VALIDATION");
    return ok({ recoveryCodes: result.recoveryCodes });
  },
});

async function auditChange(action: string, owner: FactorOwner) {
  const client = requestClient(await headers());
  await audit({ action, actorId: owner.id, schoolId: owner.schoolId, academyId: owner.academyId, ...client });
}

/** Ten new recovery codes (the old ones stop working), for someone with an app set up. */
export const renewRecoveryCodesAction = defineAction({
  name: "renewRecoveryCodes",
  schema: z.object({}),
  roles: ["teacher", "manager"],
  run: async (_input, actor) => {
    if (!(await readFactorState(actor.id))?.totp) return fail("NOT_FOUND");
    const recoveryCodes = await renewRecoveryCodes(actor.id);
    await auditChange("factor.recovery.renewed", actor);
    return ok({ recoveryCodes });
  },
});

/** Removes the person's app and recovery codes (refused when their academy requires a second factor and no passkey stays). */
export const removeSecondFactorsAction = defineAction({
  name: "removeSecondFactors",
  schema: z.object({}),
  roles: ["teacher", "manager"],
  run: async (_input, actor) => {
    const state = await readFactorState(actor.id);
    if (state?.requireSecondFactor && state.passkeys === 0) return fail("FORBIDDEN");
    if (!(await deleteTotpFactor(actor.id))) return fail("NOT_FOUND");
    await auditChange("factor.totp.removed", actor);
    return ok(null);
  },
});
