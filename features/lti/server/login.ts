import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { publicUrl } from "@/platform/env";
import { framingOrigins } from "@/platform/security/headers";
import { type LaunchRefusal, TOOL_PATHS } from "@/features/lti/shared/claims";
import { saveLaunchState } from "./launch-commands";
import { findPlatform } from "./platform-queries";

/** How long a login initiation waits for its launch. */
export const STATE_MINUTES = 10;

/** The cookie binding a state to the browser that started the login (one per state: several launches may overlap). */
export const STATE_COOKIE_PREFIX = "manabiya-lti-";
export const stateCookieName = (state: string) => `${STATE_COOKIE_PREFIX}${state}`;

/** How a secret handed to a browser is kept: its SHA-256 (a login state; a deep linking request, deep-link.ts). */
export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("base64url");

export type LoginOutcome =
  { ok: true; redirect: string; state: string } | { ok: false; code: LaunchRefusal; frameAncestors?: string[] };

/** The origins that may frame a launch's pages: the portal's (its registered issuer and auth login URL). */
export const portalOrigins = (platform: { issuer: string; authLoginUrl: string }) =>
  framingOrigins([platform.issuer, platform.authLoginUrl]);

const param = (params: URLSearchParams, name: string) => {
  const value = params.get(name)?.trim();
  return value && value.length <= 2000 ? value : null;
};

/** A target on our own origin (never somewhere else: the launch redirects there's page). */
function ownTarget(target: string): boolean {
  try {
    return new URL(target).origin === new URL(publicUrl()).origin;
  } catch {
    return false;
  }
}

/**
 * OIDC third-party-initiated login (LTI Security Framework 5.1.1): the platform names itself (`iss`, `client_id`),
 * the person (`login_hint`) and the link (`target_link_uri`); we keep a fresh state and nonce for STATE_MINUTES and
 * send the browser to the platform's authorisation endpoint, which form-posts the id_token to our launch URL.
 */
export async function startLogin(params: URLSearchParams): Promise<LoginOutcome> {
  const iss = param(params, "iss");
  const loginHint = param(params, "login_hint");
  const target = param(params, "target_link_uri");
  if (!iss || !loginHint || !target) return { ok: false, code: "badRequest" };
  const platform = await findPlatform(iss, param(params, "client_id"));
  if (!platform) return { ok: false, code: "unknownIssuer" };
  const deployment = param(params, "lti_deployment_id");
  const frameAncestors = portalOrigins(platform);
  if (deployment && !platform.deploymentIds.includes(deployment))
    return { ok: false, code: "unknownDeployment", frameAncestors };
  if (!ownTarget(target)) return { ok: false, code: "badRequest", frameAncestors };
  const state = randomBytes(32).toString("base64url");
  const nonce = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + STATE_MINUTES * 60_000);
  await saveLaunchState({ stateHash: hashSecret(state), nonce, platformId: platform.id, expiresAt });
  const url = new URL(platform.authLoginUrl);
  const query: Record<string, string> = {
    scope: "openid",
    response_type: "id_token",
    response_mode: "form_post",
    prompt: "none",
    client_id: platform.clientId,
    redirect_uri: `${publicUrl()}${TOOL_PATHS.launch}`,
    login_hint: loginHint,
    state,
    nonce,
  };
  const hint = param(params, "lti_message_hint");
  if (hint) query.lti_message_hint = hint;
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return { ok: true, redirect: url.href, state };
}
