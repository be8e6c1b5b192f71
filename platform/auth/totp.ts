import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";

/**
 * Authenticator apps (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps, as every app reads them) and recovery
 * codes: the pure parts. Storage, throttling and replay refusal: platform/auth/second-factor.ts.
 */
export const TOTP_PERIOD_S = 30;
export const TOTP_ISSUER = "Manabiya";
/** Codes of the step before and after the server's clock are accepted too (a phone's clock drifts). */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const totp = (secretBase32: string, label = "") =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });

/** A new authenticator secret (160 random bits), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI the QR code carries: the app shows "Manabiya (label)". */
export function totpUri(secretBase32: string, label: string): string {
  return totp(secretBase32, label).toString();
}

/** The code an app shows at `timestampMs` (tests compute it like an app). */
export function totpCode(secretBase32: string, timestampMs = Date.now()): string {
  return totp(secretBase32).generate({ timestamp: timestampMs });
}

export function isTotpCodeShape(code: string): boolean {
  return /^\d{6}$/.test(code);
}

/** The time step `code` belongs to (within TOTP_WINDOW of now), or null when it matches none. */
export function matchTotp(secretBase32: string, code: string, timestampMs = Date.now()): number | null {
  if (!isTotpCodeShape(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: timestampMs, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(timestampMs / 1000 / TOTP_PERIOD_S) + delta;
}

/** Crockford's base32 letters: no I, L, O or U to misread. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** Ten one-time recovery codes, 50 random bits each, shown as "xxxxx-xxxxx". */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => ALPHABET[b % 32]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A typed recovery code as stored (lower case, no spaces or dashes, O→0, I/L→1), or null when it cannot be one. */
export function normalizeRecoveryCode(input: string): string | null {
  const plain = input.toLowerCase().replace(/[\s-]/g, "").replace(/o/g, "0").replace(/[il]/g, "1");
  return plain.length === 10 && [...plain].every((c) => ALPHABET.includes(c)) ? plain : null;
}
