import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Short secrets sealed at rest (AES-256-GCM, a fresh IV each time) with a key derived by HKDF from a 32-byte master
 * key (SIGNIN_CODE_KEY) for one purpose: the students' sign-in codes, a teacher's authenticator secret, an academy's OpenID Connect client secret, the LTI tool's private key, an academy's LRS credentials. A
 * copy of the database alone opens none of them. Sealed form: "v1.<iv>.<ciphertext>.<tag>" (base64url).
 */
export type SealPurpose =
  "signin-code-encryption" | "totp-secret-encryption" | "oidc-client-secret" | "lti-private-key" | "lrs-credentials";

const keyCache = new Map<string, Buffer>();

/** The key for `purpose`, derived from the master key (64 hex characters). */
export function derivedKey(masterHex: string, purpose: string): Buffer {
  const cacheKey = `${purpose}:${masterHex}`;
  let key = keyCache.get(cacheKey);
  if (!key) {
    const master = Buffer.from(masterHex, "hex");
    if (master.length !== 32) throw new Error("SIGNIN_CODE_KEY must be 32 bytes (64 hex characters)");
    key = Buffer.from(hkdfSync("sha256", master, "manabiya", purpose, 32));
    keyCache.set(cacheKey, key);
  }
  return key;
}

export function sealSecret(text: string, masterHex: string, purpose: SealPurpose): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(masterHex, purpose), iv);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(
    ".",
  );
}

export function openSecret(sealed: string, masterHex: string, purpose: SealPurpose): string {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== "v1" || !iv || !body || !tag) throw new Error("unknown sealed secret format");
  const decipher = createDecipheriv("aes-256-gcm", derivedKey(masterHex, purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
