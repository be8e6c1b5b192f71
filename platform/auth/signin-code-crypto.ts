import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * Sign-in codes (docs/product-design.md "Accounts and sign-in"): 128 random bits, shown as
 * base64url (22 characters). At rest a code is encrypted (AES-256-GCM) so the
 * same card can be printed again, and found by a keyed hash (HMAC-SHA-256), so
 * a copy of the database alone signs nobody in. Both keys derive from
 * SIGNIN_CODE_KEY with HKDF. The same helpers, with keys of their own, seal a teacher's authenticator secret
 * ("totp") and hash recovery codes ("recovery"): platform/auth/second-factor.ts.
 */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

interface Keys {
  enc: Buffer;
  mac: Buffer;
  /** a teacher's or manager's authenticator secret at rest (platform/auth/second-factor.ts) */
  totp: Buffer;
  /** recovery codes' lookup hash */
  recovery: Buffer;
}

const keyCache = new Map<string, Keys>();

function keys(masterHex: string): Keys {
  let k = keyCache.get(masterHex);
  if (!k) {
    const master = Buffer.from(masterHex, "hex");
    if (master.length !== 32) throw new Error("SIGNIN_CODE_KEY must be 32 bytes (64 hex characters)");
    k = {
      enc: Buffer.from(hkdfSync("sha256", master, "manabiya", "signin-code-encryption", 32)),
      mac: Buffer.from(hkdfSync("sha256", master, "manabiya", "signin-code-lookup", 32)),
      totp: Buffer.from(hkdfSync("sha256", master, "manabiya", "totp-secret-encryption", 32)),
      recovery: Buffer.from(hkdfSync("sha256", master, "manabiya", "recovery-code-lookup", 32)),
    };
    keyCache.set(masterHex, k);
  }
  return k;
}

export function generateCode(): string {
  return randomBytes(16).toString("base64url");
}

export function isWellFormedCode(code: string): boolean {
  return CODE_PATTERN.test(code);
}

export function hashCode(code: string, masterHex: string, purpose: "mac" | "recovery" = "mac"): string {
  return createHmac("sha256", keys(masterHex)[purpose]).update(code).digest("hex");
}

export function encryptCode(code: string, masterHex: string, purpose: "enc" | "totp" = "enc"): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys(masterHex)[purpose], iv);
  const body = Buffer.concat([cipher.update(code, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(
    ".",
  );
}

export function decryptCode(sealed: string, masterHex: string, purpose: "enc" | "totp" = "enc"): string {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== "v1" || !iv || !body || !tag) throw new Error("unknown sign-in code format");
  const decipher = createDecipheriv("aes-256-gcm", keys(masterHex)[purpose], Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** A fresh code with what the database stores for it. */
export function sealNewCode(masterHex: string) {
  const code = generateCode();
  return { code, codeHash: hashCode(code, masterHex), codeEncrypted: encryptCode(code, masterHex) };
}
