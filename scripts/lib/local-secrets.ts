import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Secrets for a machine without a .env: generated once and kept in
 * .data/secrets.json (git-ignored), so sessions and printed sign-in codes stay
 * valid across restarts. Never used when NODE_ENV=production.
 */
export function localSecrets(root: string): { AUTH_SECRET: string; SIGNIN_CODE_KEY: string } {
  const file = path.join(root, ".data", "secrets.json");
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8")) as { AUTH_SECRET: string; SIGNIN_CODE_KEY: string };
    if (saved.AUTH_SECRET && saved.SIGNIN_CODE_KEY) return saved;
  }
  const secrets = {
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    SIGNIN_CODE_KEY: randomBytes(32).toString("hex"),
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
