import { createSign, generateKeyPairSync, type JsonWebKey, type KeyObject } from "node:crypto";
import type Provider from "oidc-provider";

/**
 * How the local provider spoils the ID token of a login "<kind>:<login>" (the rest of the login signs in as usual):
 * made for another client, by another issuer, or expired an hour ago; each is re-signed with the provider's own key.
 */
export const TAMPERINGS = ["wrong-audience", "wrong-issuer", "expired"] as const;
export type Tampering = (typeof TAMPERINGS)[number];

const TAMPERED = new RegExp(`^(${TAMPERINGS.join("|")}):`);

/** The login without a tampering prefix (the account it names). */
export function untampered(login: string): string {
  return login.replace(TAMPERED, "");
}

/** The provider's signing key (published at its jwks_uri), kept here to re-sign spoiled tokens. */
export function signingKeys(kid: string) {
  const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  return { key, jwk: { ...(key.export({ format: "jwk" }) as JsonWebKey), kid, alg: "RS256", use: "sig" } };
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

function sign(header: object, payload: object, key: KeyObject): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createSign("RSA-SHA256").update(input).sign(key).toString("base64url")}`;
}

function tamper(kind: Tampering, payload: Record<string, unknown>): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  if (kind === "wrong-audience") return { ...payload, aud: "another-client-of-the-same-provider" };
  if (kind === "wrong-issuer") return { ...payload, iss: "https://issuer.invalid" };
  return { ...payload, iat: now - 7200, exp: now - 3600 };
}

/** Re-signs the token endpoint's ID token as the login's tampering asks (a login without one passes untouched). */
export function installTampering(provider: Provider, keys: ReturnType<typeof signingKeys>) {
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (ctx.path !== "/token" || typeof body?.id_token !== "string") return;
    const [header, payload] = body.id_token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString()));
    const kind = TAMPERINGS.find((k) => String(payload.sub).startsWith(`${k}:`));
    if (!kind) return;
    body.id_token = sign(header, tamper(kind, payload), keys.key);
  });
}
