"use server";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { headers } from "next/headers";
import { z } from "zod";
import { audit } from "@/platform/audit/log";
import { type ActionResult, fail, ok } from "@/platform/errors";
import { defineAction } from "@/platform/http/action";
import { requestClient } from "@/platform/security/client-ip";
import {
  checkPasskey,
  finishPasskeyRegistration,
  type PasskeyRefusal,
  startPasskeyRegistration,
  startPasskeySignin,
} from "./passkey";
import { deletePasskey } from "./passkey-commands";
import { afterSecondFactor } from "./second-factor";
import { passSecondFactor } from "./second-factor-commands";
import { readFactorState } from "./second-factor-queries";
import { currentDeviceId, getPendingSignin } from "./session";
import { PASSKEY_NAME_MAX } from "./passkey-limits";

const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/);

/** An authenticator's answer as @simplewebauthn/browser sends it; the library checks the rest. */
const credentialSchema = z.looseObject({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal("public-key"),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.string().max(32).optional(),
  response: z.looseObject({ clientDataJSON: b64url(4000) }),
});

const registrationSchema = z.object({
  name: z.string().trim().min(1).max(PASSKEY_NAME_MAX),
  credential: credentialSchema.extend({
    response: z.looseObject({ clientDataJSON: b64url(4000), attestationObject: b64url(16_000) }),
  }),
});

const authenticationSchema = credentialSchema.extend({
  response: z.looseObject({
    clientDataJSON: b64url(4000),
    authenticatorData: b64url(4000),
    signature: b64url(2000),
    userHandle: b64url(200).optional(),
  }),
});

/** A refusal's result code: a closed set the page translates. */
function refused(code: PasskeyRefusal): ActionResult<never> {
  return fail(code === "tooManyRequests" ? "RATE_LIMITED" : code === "passkeyDuplicate" ? "CONFLICT" : "VALIDATION", {
    passkey: [code],
  });
}

/** A teacher or manager starts adding a passkey on this device: the options for the browser. */
export const startPasskeyRegistrationAction = defineAction({
  name: "startPasskeyRegistration",
  schema: z.object({}),
  roles: ["teacher", "manager"],
  run: async (_input, actor): Promise<ActionResult<PublicKeyCredentialCreationOptionsJSON>> => {
    const sid = await currentDeviceId();
    if (!sid) return fail("UNAUTHENTICATED");
    return ok(await startPasskeyRegistration(actor, sid));
  },
});

/** The authenticator's answer: checked against this device's challenge and saved under the name given. */
export const finishPasskeyRegistrationAction = defineAction({
  name: "finishPasskeyRegistration",
  schema: registrationSchema,
  roles: ["teacher", "manager"],
  run: async ({ name, credential }, actor) => {
    const sid = await currentDeviceId();
    if (!sid) return fail("UNAUTHENTICATED");
    const client = requestClient(await headers());
    const result = await finishPasskeyRegistration(actor, sid, credential as RegistrationResponseJSON, name, client);
    return result.ok ? ok(null) : refused(result.code);
  },
});

/** Removes one of the person's passkeys (refused when the academy requires a second factor and it is the last one). */
export const removePasskeyAction = defineAction({
  name: "removePasskey",
  schema: z.object({ id: z.uuid() }),
  roles: ["teacher", "manager"],
  run: async ({ id }, actor) => {
    const state = await readFactorState(actor.id);
    if (state?.requireSecondFactor && !state.totp && state.passkeys <= 1) return fail("FORBIDDEN");
    const name = await deletePasskey(actor.id, id);
    if (name === null) return fail("NOT_FOUND");
    const client = requestClient(await headers());
    await audit({
      action: "factor.passkey.removed",
      actorId: actor.id,
      schoolId: actor.schoolId,
      academyId: actor.academyId,
      targetType: "passkey",
      targetId: id,
      meta: { name },
      ...client,
    });
    return ok(null);
  },
});

/** /auth/second-factor: the options to sign in with one of the person's passkeys (this waiting sign-in only). */
export async function startPasskeySigninAction(): Promise<ActionResult<PublicKeyCredentialRequestOptionsJSON>> {
  const pending = await getPendingSignin();
  if (!pending) return fail("UNAUTHENTICATED");
  const options = await startPasskeySignin(pending, pending.sid);
  return options ? ok(options) : fail("NOT_FOUND");
}

/** The passkey's answer: right, the device is signed in and the page goes where the sign-in was headed. */
export async function verifyPasskeySigninAction(
  input: unknown,
  from: unknown,
): Promise<ActionResult<{ href: string }>> {
  const pending = await getPendingSignin();
  if (!pending) return fail("UNAUTHENTICATED");
  const parsed = authenticationSchema.safeParse(input);
  if (!parsed.success) return refused("passkeyRefused");
  const client = requestClient(await headers());
  const result = await checkPasskey(pending, pending.sid, parsed.data as AuthenticationResponseJSON, client);
  if (!result.ok) return refused(result.code);
  await passSecondFactor(pending.id, pending.sid);
  return ok({ href: afterSecondFactor(pending.role, from) });
}
