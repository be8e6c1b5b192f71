import "server-only";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { audit } from "@/platform/audit/log";
import { publicUrl } from "@/platform/env";
import type { RequestClient } from "@/platform/security/client-ip";
import { insertPasskey, recordPasskeyUse, saveChallenge, spendChallenge } from "./passkey-commands";
import { findPasskey, passkeyDescriptors } from "./passkey-queries";
import type { FactorOwner } from "./second-factor";
import { recordSuccess, reserveAttempt } from "./throttle";

/**
 * Passkeys (WebAuthn) as a staff second factor, beside the authenticator app (second-factor.ts). The relying party is
 * the configured public address (AUTH_URL): its origin and host name are what every response must name, never a
 * request's Host. A ceremony's challenge is kept server-side on the device session (webauthn_challenges), lives
 * CHALLENGE_SECONDS and serves one response, right or wrong. User verification is preferred, not required (a key
 * without a PIN still proves possession); the signature counter must grow when the authenticator keeps one.
 */
const CHALLENGE_SECONDS = 120;
const TIMEOUT_MS = 60_000;

/** The relying party: the public address's origin and host name. */
export function relyingParty(base = publicUrl()): { origin: string; rpID: string } {
  const url = new URL(base);
  return { origin: url.origin, rpID: url.hostname };
}

/** Options for adding a passkey on this device session (the person's others excluded); the challenge kept. */
export async function startPasskeyRegistration(
  owner: FactorOwner & { email: string | null; name?: string | null },
  sid: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await passkeyDescriptors(owner.id);
  const options = await generateRegistrationOptions({
    rpName: "Manabiya",
    rpID: relyingParty().rpID,
    userName: owner.email ?? owner.id,
    userDisplayName: owner.name ?? owner.email ?? "",
    userID: new Uint8Array(Buffer.from(owner.id.replace(/-/g, ""), "hex")),
    timeout: TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await saveChallenge(sid, "register", options.challenge, CHALLENGE_SECONDS);
  return options;
}

export type PasskeyRefusal = "passkeyRefused" | "passkeyExpired" | "passkeyDuplicate" | "tooManyRequests";

/** Checks the authenticator's answer to this device session's registration challenge and saves the passkey. */
export async function finishPasskeyRegistration(
  owner: FactorOwner,
  sid: string,
  response: RegistrationResponseJSON,
  name: string,
  client: RequestClient,
): Promise<{ ok: true } | { ok: false; code: PasskeyRefusal }> {
  const challenge = await spendChallenge(sid, "register");
  if (!challenge) return { ok: false, code: "passkeyExpired" };
  const { origin, rpID } = relyingParty();
  const verified = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verified?.verified || !verified.registrationInfo) return { ok: false, code: "passkeyRefused" };
  const { credential } = verified.registrationInfo;
  const saved = await insertPasskey(owner.id, {
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
    name,
  });
  if (!saved) return { ok: false, code: "passkeyDuplicate" };
  await audit({
    action: "factor.passkey.added",
    actorId: owner.id,
    schoolId: owner.schoolId,
    academyId: owner.academyId,
    meta: { name },
    ...client,
  });
  return { ok: true };
}

/** Options for signing in with one of the person's passkeys on this waiting sign-in; null: they have none. */
export async function startPasskeySignin(
  owner: FactorOwner,
  sid: string,
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const keys = await passkeyDescriptors(owner.id);
  if (keys.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    allowCredentials: keys.map((c) => ({ id: c.credentialId, transports: c.transports })),
    userVerification: "preferred",
    timeout: TIMEOUT_MS,
  });
  await saveChallenge(sid, "signin", options.challenge, CHALLENGE_SECONDS);
  return options;
}

/**
 * Checks a passkey's answer to this waiting sign-in's challenge (throttled per person like a code): the credential
 * must be one of the person's, the challenge this session's and unexpired (used once), origin and RP ID the public
 * address's, the signature valid and the counter growing. Every outcome is in the sign-in log.
 */
export async function checkPasskey(
  owner: FactorOwner,
  sid: string,
  response: AuthenticationResponseJSON,
  client: RequestClient,
): Promise<{ ok: true } | { ok: false; code: PasskeyRefusal; retryMinutes?: number }> {
  const entry = { actorId: owner.id, schoolId: owner.schoolId, academyId: owner.academyId, ...client };
  const subject = { kind: "factor", value: owner.id } as const;
  const reserved = await reserveAttempt(subject, client.ip);
  if (!reserved.ok) {
    await audit({ action: "signin.passkey.throttled", ...entry, meta: { reason: "tooManyRequests" } });
    return { ok: false, code: "tooManyRequests", retryMinutes: reserved.retryMinutes };
  }
  const refusal = await verifyPasskey(owner.id, sid, response);
  if (refusal) {
    await audit({ action: "signin.passkey.failure", ...entry, meta: { reason: refusal } });
    return { ok: false, code: refusal };
  }
  await recordSuccess(subject, client.ip);
  await audit({ action: "signin.passkey.success", ...entry });
  return { ok: true };
}

async function verifyPasskey(
  userId: string,
  sid: string,
  response: AuthenticationResponseJSON,
): Promise<PasskeyRefusal | null> {
  const challenge = await spendChallenge(sid, "signin");
  if (!challenge) return "passkeyExpired";
  const key = await findPasskey(userId, response.id);
  if (!key) return "passkeyRefused";
  const { origin, rpID } = relyingParty();
  const counter = Number(key.counter);
  const verified = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: { id: key.credentialId, publicKey: new Uint8Array(key.publicKey), counter, transports: key.transports },
    requireUserVerification: false,
  }).catch(() => null);
  if (!verified?.verified) return "passkeyRefused";
  return (await recordPasskeyUse(key.id, counter, verified.authenticationInfo.newCounter)) ? null : "passkeyRefused";
}
