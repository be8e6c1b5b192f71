import "server-only";
import {
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  type JWK,
  type JWTPayload,
  SignJWT,
} from "jose";
import { openSecret, sealSecret } from "@/platform/auth/secret-box";
import { env } from "@/platform/env";
import { addFirstKey, replaceCurrentKey } from "./key-commands";
import { findCurrentKey, publishedKeys } from "./key-queries";

/**
 * The tool's own key pair (RS256, 2048 bits), which signs what we send a platform (deep linking responses and the
 * services' client assertions, later): made on first need, the private key sealed with SIGNIN_CODE_KEY
 * (platform/auth/secret-box.ts), the public key published at /api/lti/jwks. `npm run admin -- rotate-lti-key` makes a
 * new current key; the previous public key stays published KEY_OVERLAP_DAYS longer, so a platform that cached our
 * JWKS still verifies what was signed before.
 */
export const KEY_OVERLAP_DAYS = 7;
const ALG = "RS256";

async function newKey() {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    kid,
    publicJwk: { ...jwk, kid, alg: ALG, use: "sig" },
    privateKeySealed: sealSecret(await exportPKCS8(privateKey), env().SIGNIN_CODE_KEY, "lti-private-key"),
  };
}

/** The current key, made now when there is none (the first of several at once wins; the others read it). */
async function currentKey() {
  const key = await findCurrentKey();
  if (key) return key;
  await addFirstKey(await newKey());
  return (await findCurrentKey())!;
}

/** The JWKS a platform fetches: the current public key (made now when there is none) and the recently retired ones. */
export async function toolJwks(): Promise<{ keys: JWK[] }> {
  await currentKey();
  const since = new Date(Date.now() - KEY_OVERLAP_DAYS * 24 * 60 * 60 * 1000);
  return { keys: (await publishedKeys(since)).map((k) => k.publicJwk as JWK) };
}

/** A new current key; the one it replaces (its kid) stays published KEY_OVERLAP_DAYS. */
export async function rotateToolKey(): Promise<{ kid: string; retired: string | null }> {
  const key = await newKey();
  const { retired } = await replaceCurrentKey(key);
  return { kid: key.kid, retired };
}

/** `payload` signed with the current key (RS256, its kid in the header), issued now, alive `lifetimeSeconds`. */
export async function signWithToolKey(payload: JWTPayload, lifetimeSeconds: number): Promise<string> {
  const key = await currentKey();
  const privateKey = await importPKCS8(openSecret(key.privateKeySealed, env().SIGNIN_CODE_KEY, "lti-private-key"), ALG);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: "JWT" })
    .setIssuedAt(now)
    .setExpirationTime(now + lifetimeSeconds)
    .sign(privateKey);
}
