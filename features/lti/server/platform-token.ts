import "server-only";
import { randomUUID } from "node:crypto";
import { signWithToolKey } from "./keys";

/**
 * The platform's access token for its services (Assignment and Grade Services, Names and Role Provisioning): OAuth 2.0
 * client credentials with a JWT client assertion (1EdTech Security Framework 1.0 §4.1). The assertion is signed with
 * our current tool key (keys.ts): `iss` and `sub` our client id there, `aud` its token URL, a fresh `jti`, alive
 * ASSERTION_SECONDS. A token is asked per platform and set of scopes, and kept until REFRESH_MARGIN_S before it
 * expires. The platform's answers: ServiceUnavailable (it may take it later: 5xx, 408, 429, no answer) or
 * ServiceRefused (a 4xx that asking again will not change).
 */
export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
const ASSERTION_SECONDS = 300;
const REFRESH_MARGIN_S = 60;
const TIMEOUT_MS = 15_000;

export class ServiceUnavailable extends Error {}
export class ServiceRefused extends Error {}

export interface TokenPlatform {
  id: string;
  clientId: string;
  tokenUrl: string;
}

interface Held {
  token: string;
  until: number;
}

const KEY = Symbol.for("manabiya.lti.platformTokens");
// shared by Next's bundles: one cache per process
const held = ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map()) as Map<string, Held>;

/** A fetch of a platform's service: its answer, or ServiceUnavailable when there is none. */
export async function serviceFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" });
  } catch (error) {
    throw new ServiceUnavailable(`no answer: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Throws for an answer that is not 2xx: ServiceUnavailable when asking later may work, else ServiceRefused. */
export async function acceptedOrThrow(res: Response): Promise<void> {
  if (res.ok) return;
  const error = `${res.status} ${(await res.text().catch(() => "")).slice(0, 500)}`.trim();
  if (res.status >= 500 || res.status === 408 || res.status === 429) throw new ServiceUnavailable(error);
  throw new ServiceRefused(error);
}

/** The client assertion for `platform`'s token endpoint. */
export function clientAssertion(platform: TokenPlatform): Promise<string> {
  const claims = { iss: platform.clientId, sub: platform.clientId, aud: platform.tokenUrl, jti: randomUUID() };
  return signWithToolKey(claims, ASSERTION_SECONDS);
}

async function requestToken(platform: TokenPlatform, scope: string): Promise<Held> {
  const body = new URLSearchParams({
    grant_type: "client_credentials",
    client_assertion_type: CLIENT_ASSERTION_TYPE,
    client_assertion: await clientAssertion(platform),
    scope,
  });
  const res = await serviceFetch(platform.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body,
  });
  await acceptedOrThrow(res);
  const answer = (await res.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
  if (typeof answer?.access_token !== "string") throw new ServiceRefused(`${res.status} no access_token`);
  const seconds = typeof answer.expires_in === "number" ? answer.expires_in : 3600;
  return { token: answer.access_token, until: Date.now() + Math.max(0, seconds - REFRESH_MARGIN_S) * 1000 };
}

/** A bearer token of `platform` for `scopes` (asked for now, or the one held while it is alive). */
export async function platformToken(platform: TokenPlatform, scopes: string[]): Promise<string> {
  const scope = [...new Set(scopes)].sort().join(" ");
  const key = `${platform.id}|${platform.clientId}|${platform.tokenUrl}|${scope}`;
  const kept = held.get(key);
  if (kept && kept.until > Date.now()) return kept.token;
  const fresh = await requestToken(platform, scope);
  held.set(key, fresh);
  return fresh.token;
}

/** Forgets the tokens held for `platform` (the platform refused one: 401). */
export function forgetTokens(platformId: string): void {
  for (const key of held.keys()) if (key.startsWith(`${platformId}|`)) held.delete(key);
}
