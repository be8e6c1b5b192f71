import { createHmac, randomBytes } from "node:crypto";
import { derivedKey, openSecret, sealSecret } from "./secret-box";

/**
 * Sign-in codes (docs/product-design.md "Accounts and sign-in"): 128 random bits, shown as
 * base64url (22 characters). At rest a code is encrypted (AES-256-GCM, platform/auth/secret-box.ts)
 * so the same card can be printed again, and found by a keyed hash (HMAC-SHA-256), so
 * a copy of the database alone signs nobody in. Both keys derive from
 * SIGNIN_CODE_KEY with HKDF. The same helpers, with keys of their own, seal a teacher's authenticator secret
 * ("totp") and hash recovery codes ("recovery"): platform/auth/second-factor.ts.
 */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export function generateCode(): string {
  return randomBytes(16).toString("base64url");
}

export function isWellFormedCode(code: string): boolean {
  return CODE_PATTERN.test(code);
}

export function hashCode(code: string, masterHex: string, purpose: "mac" | "recovery" = "mac"): string {
  const key = derivedKey(masterHex, purpose === "recovery" ? "recovery-code-lookup" : "signin-code-lookup");
  return createHmac("sha256", key).update(code).digest("hex");
}

const SEALS = { enc: "signin-code-encryption", totp: "totp-secret-encryption" } as const;

export function encryptCode(code: string, masterHex: string, purpose: "enc" | "totp" = "enc"): string {
  return sealSecret(code, masterHex, SEALS[purpose]);
}

export function decryptCode(sealed: string, masterHex: string, purpose: "enc" | "totp" = "enc"): string {
  return openSecret(sealed, masterHex, SEALS[purpose]);
}

/** A fresh code with what the database stores for it. */
export function sealNewCode(masterHex: string) {
  const code = generateCode();
  return { code, codeHash: hashCode(code, masterHex), codeEncrypted: encryptCode(code, masterHex) };
}
