import { createDecipheriv, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { HOST_SESSION_COOKIE, SESSION_COOKIE } from "./cookies";
import { sidOf } from "./device-sessions";
import { framingOrigins } from "@/platform/security/headers";

/**
 * Reads next-auth's session token (a JWE, `dir` + A256CBC-HS512, RFC 7516/7518)
 * with node:crypto and a derived key computed once, instead of jose over
 * WebCrypto with the key derived again on every call (~1.5 ms of CPU per
 * request, the largest single cost of an answer save). Same checks: the
 * authentication tag (constant-time), then expiry with next-auth's 15 s
 * tolerance. A token in any other form returns "unsupported" and the caller
 * falls back to next-auth's own decoder.
 */
export interface SessionClaims {
  sub?: unknown;
  role?: unknown;
  exp?: unknown;
  [claim: string]: unknown;
}

const CLOCK_TOLERANCE_S = 15;
const keys = new Map<string, Buffer>();

function derivedKey(secret: string, salt: string): Buffer {
  const id = `${salt}\0${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64));
    keys.set(id, key);
  }
  return key;
}

export function decodeSessionToken(
  token: string,
  secret: string,
  salt: string,
  nowS = Date.now() / 1000,
): SessionClaims | null | "unsupported" {
  const parts = token.split(".");
  if (parts.length !== 5) return "unsupported";
  const [protectedHeader, encryptedKey, ivPart, ciphertextPart, tagPart] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  let header: { alg?: unknown; enc?: unknown; zip?: unknown; crit?: unknown };
  try {
    header = JSON.parse(Buffer.from(protectedHeader, "base64url").toString("utf8")) as typeof header;
  } catch {
    return null;
  }
  if (
    header.alg !== "dir" ||
    header.enc !== "A256CBC-HS512" ||
    header.zip !== undefined ||
    header.crit !== undefined ||
    encryptedKey !== ""
  )
    return "unsupported";
  const key = derivedKey(secret, salt);
  const iv = Buffer.from(ivPart, "base64url");
  const ciphertext = Buffer.from(ciphertextPart, "base64url");
  const tag = Buffer.from(tagPart, "base64url");
  if (iv.length !== 16 || tag.length !== 32) return null;
  // RFC 7518 5.2.2.1: MAC over AAD ‖ IV ‖ ciphertext ‖ AL (AAD length in bits, 64-bit big-endian); tag = first half
  const aad = Buffer.from(protectedHeader, "ascii");
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length * 8));
  const mac = createHmac("sha512", key.subarray(0, 32))
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(al)
    .digest()
    .subarray(0, 32);
  if (!timingSafeEqual(mac, tag)) return null;
  let claims: SessionClaims;
  try {
    const decipher = createDecipheriv("aes-256-cbc", key.subarray(32), iv);
    claims = JSON.parse(
      Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8"),
    ) as SessionClaims;
  } catch {
    return null;
  }
  if (typeof claims !== "object" || claims === null) return null;
  if (typeof claims.exp !== "number" || claims.exp <= nowS - CLOCK_TOLERANCE_S) return null;
  if (typeof claims.nbf === "number" && claims.nbf > nowS + CLOCK_TOLERANCE_S) return null;
  return claims;
}

/**
 * Tokens already opened, by secret and salt: a student's device sends the
 * same cookie with every answer, and the claims of a token never change.
 * Expiry is checked again on every use; at most MAX_OPENED per secret.
 */
const opened = new Map<string, Map<string, SessionClaims>>();
const MAX_OPENED = 20_000;

function decodeRemembered(token: string, secret: string, salt: string): SessionClaims | null | "unsupported" {
  let bySecret = opened.get(secret);
  if (!bySecret) opened.set(secret, (bySecret = new Map()));
  const id = `${salt}\0${token}`;
  const known = bySecret.get(id);
  const nowS = Date.now() / 1000;
  if (known) {
    const fresh = typeof known.exp === "number" && known.exp > nowS - CLOCK_TOLERANCE_S;
    return fresh ? known : null;
  }
  const claims = decodeSessionToken(token, secret, salt, nowS);
  if (claims !== null && claims !== "unsupported" && typeof claims.nbf !== "number") {
    if (bySecret.size >= MAX_OPENED) bySecret.delete(bySecret.keys().next().value!);
    bySecret.set(id, claims);
  }
  return claims;
}

/** The session cookie of a request (`__Host-` first; chunks `.0`, `.1`… joined) and the salt it was sealed with. */
function sessionCookieOf(cookies: { name: string; value: string }[]): { salt: string; value: string } | null {
  for (const salt of [HOST_SESSION_COOKIE, SESSION_COOKIE]) {
    const whole = cookies.find((c) => c.name === salt);
    if (whole) return { salt, value: whole.value };
    const chunks = cookies
      .filter((c) => c.name.startsWith(`${salt}.`) && /^\d+$/.test(c.name.slice(salt.length + 1)))
      .sort((a, b) => Number(a.name.slice(salt.length + 1)) - Number(b.name.slice(salt.length + 1)));
    if (chunks.length) return { salt, value: chunks.map((c) => c.value).join("") };
  }
  return null;
}

/**
 * Who the session cookie says is signed in (id, role, the session version
 * it was issued with, 0 for tokens from before versions, and a staff device's
 * session id, platform/auth/device-sessions.ts; the origins that may frame an LTI session's pages,
 * platform/security/headers.ts framingOrigins), or null. Never the
 * protection of data on its own: callers re-check the user, and the version,
 * in the database.
 */
export async function readSessionCookie(
  cookies: { name: string; value: string }[],
  secret: string,
): Promise<{ id: string; role: string; sv: number; sid: string | null; frameAncestors: string[] } | null> {
  const cookie = sessionCookieOf(cookies);
  if (!cookie) return null;
  let claims = decodeRemembered(cookie.value, secret, cookie.salt);
  if (claims === "unsupported") {
    const { decode } = await import("next-auth/jwt");
    claims = (await decode({ token: cookie.value, secret, salt: cookie.salt }).catch(
      () => null,
    )) as SessionClaims | null;
  }
  if (!claims || typeof claims.sub !== "string" || typeof claims.role !== "string") return null;
  return {
    id: claims.sub,
    role: claims.role,
    sv: typeof claims.sv === "number" ? claims.sv : 0,
    sid: sidOf(claims.sid),
    frameAncestors: framingOrigins(claims.fa),
  };
}
