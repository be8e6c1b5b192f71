import "server-only";
import { randomBytes } from "node:crypto";
import { getTranslations } from "next-intl/server";
import { cookies } from "next/headers";
import type { NextRequest } from "next/server";
import { audit } from "@/platform/audit/log";
import { recordSignIn } from "@/platform/auth/commands";
import { getActor, sessionFrameAncestors } from "@/platform/auth/session";
import { signInVerified } from "@/platform/auth/verified-signin-start";
import { env, publicUrl } from "@/platform/env";
import { readBodyLimited } from "@/platform/http";
import { getPlainText } from "@/platform/i18n/server";
import { countSigninFailure } from "@/platform/ops/metrics";
import { requestClient } from "@/platform/security/client-ip";
import { REFUSED_PAGE, withFramePass } from "@/platform/security/frame-pass";
import { frameAncestorsDirective, framingOrigins, originOf, sameOrigin } from "@/platform/security/headers";
import type { LaunchRefusal } from "@/features/lti/shared/claims";
import { pickActivity } from "./deep-link";
import { toolJwks } from "./keys";
import { verifyLaunch } from "./launch";
import { type LoginOutcome, STATE_MINUTES, startLogin, stateCookieName } from "./login";

/** A login initiation's or launch's form: small (an id_token is a few kilobytes). */
const MAX_FORM_BYTES = 64 * 1024;

/** 303: the browser follows with a GET (after a form POST too). */
const seeOther = (path: string) =>
  new Response(null, {
    status: 303,
    headers: { Location: new URL(path, publicUrl()).href, "Cache-Control": "no-store" },
  });
/**
 * The translated refusal page, framed through a frame pass by `frameAncestors`: the registered portal's origins once
 * the platform is known; before that (an unknown issuer, a browser without the login's state cookie) the origin the
 * request came from (its Origin, else its Referer's), so that the portal's frame shows why instead of the browser's
 * error. Anyone may ask for a pass for their own origin that way; the page holds no form and says nothing of anybody.
 */
const refused = (req: NextRequest, code: LaunchRefusal, frameAncestors?: string[]) =>
  seeOther(withFramePass(`${REFUSED_PAGE}?reason=${code}`, frameAncestors ?? callerOrigins(req), env().AUTH_SECRET));

function callerOrigins(req: NextRequest): string[] {
  // a sandboxed or privacy-redirected frame sends `Origin: null`: its Referer may still name the portal
  const origin = originOf(req.headers.get("origin") ?? undefined) ?? req.headers.get("referer");
  return framingOrigins([origin]);
}

/**
 * The state cookie: the launch comes back as a cross-site form POST (from the portal's page, in a new window or its
 * iframe), so it is SameSite=None (hence Secure) and Partitioned (CHIPS: in an iframe it lives in the portal's
 * partition, where the launch reads it); only the launch URL receives it, for STATE_MINUTES.
 */
const STATE_COOKIE = {
  httpOnly: true,
  secure: true,
  sameSite: "none",
  partitioned: true,
  path: "/api/lti/launch",
} as const;

async function formOf(req: NextRequest): Promise<URLSearchParams | null> {
  if (req.method === "GET") return req.nextUrl.searchParams;
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return null;
  const body = await readBodyLimited(req, MAX_FORM_BYTES);
  return body === null ? null : new URLSearchParams(body);
}

/** GET or POST /api/lti/login: the platform's OIDC login initiation → its authorisation endpoint. */
export async function ltiLogin(req: NextRequest): Promise<Response> {
  const params = await formOf(req);
  const outcome: LoginOutcome = params ? await startLogin(params) : { ok: false, code: "badRequest" };
  if (!outcome.ok) return refused(req, outcome.code, outcome.frameAncestors);
  (await cookies()).set(stateCookieName(outcome.state), "1", { ...STATE_COOKIE, maxAge: STATE_MINUTES * 60 });
  return new Response(null, { status: 302, headers: { Location: outcome.redirect, "Cache-Control": "no-store" } });
}

/**
 * POST /api/lti/launch: the platform's form post of id_token and state (features/lti/server/launch.ts). A verified
 * person is signed in through the one session mechanism (platform/auth/verified-signin.ts: a staff member under the
 * second-factor policy still gives a code) and sent to the linked activity; every refusal goes to the translated
 * refusal page, in the sign-in log, with no session and no account made.
 */
export async function ltiLaunch(req: NextRequest): Promise<Response> {
  const form = await formOf(req);
  const state = form?.get("state") ?? null;
  const jar = await cookies();
  const bound = state !== null && state.length <= 200 && jar.get(stateCookieName(state))?.value === "1";
  if (bound) jar.set(stateCookieName(state), "", { ...STATE_COOKIE, maxAge: 0 });
  const outcome = await verifyLaunch({ idToken: form?.get("id_token"), state, stateBound: bound });
  const client = requestClient(req.headers);
  if (!outcome.ok) {
    countSigninFailure("lti", outcome.code);
    await audit({
      action: "signin.lti.failure",
      actorId: outcome.userId,
      academyId: outcome.academyId,
      ...client,
      meta: { reason: outcome.code },
    });
    return refused(req, outcome.code, outcome.frameAncestors);
  }
  if (!(await signInVerified(outcome.user, "lti", outcome.frameAncestors)))
    return refused(req, "badRequest", outcome.frameAncestors);
  await recordSignIn(outcome.user.id);
  await audit({ action: "signin.lti.success", actorId: outcome.user.id, academyId: outcome.academyId, ...client });
  return seeOther(outcome.landing);
}

const escape = (v: string) =>
  v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The page that form-posts the signed deep linking response (`JWT`) to the platform's return URL at once (Deep
 * Linking 2.0 §4.5), with a button for a browser without JavaScript. Its own policy: only its one script runs, its
 * form may go to the return URL's origin only, and only the session's portal may frame it (as the picker before it).
 */
async function handoff(returnUrl: string, jwt: string, frameAncestors: string[]): Promise<Response> {
  const [t, plain] = await Promise.all([getTranslations("LtiDeepLink"), getPlainText()]);
  const nonce = randomBytes(16).toString("base64");
  const text = escape(plain(t("handoff")));
  const html =
    `<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>${text}</title></head><body>` +
    `<form method="post" action="${escape(returnUrl)}"><input type="hidden" name="JWT" value="${escape(jwt)}">` +
    `<p>${text}</p><noscript><button type="submit">${escape(plain(t("continue")))}</button></noscript></form>` +
    `<script nonce="${nonce}">document.forms[0].submit()</script></body></html>`;
  const policy = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `form-action ${new URL(returnUrl).origin}`,
    "base-uri 'none'",
    frameAncestorsDirective(frameAncestors),
  ].join("; ");
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": policy,
      "Cache-Control": "no-store",
    },
  });
}

/**
 * POST /api/lti/deep-link: a staff member's pick on the deep linking picker (features/lti/server/deep-link.ts): from
 * our own page (Origin), signed in, the request theirs and waiting, the activity theirs to link; answered by the
 * page that posts the signed response to the portal. Every refusal goes to the translated refusal page.
 */
export async function ltiDeepLinkPick(req: NextRequest): Promise<Response> {
  const actor = await getActor();
  const form = sameOrigin(req.headers, req.url) ? await formOf(req) : null;
  const portal = await sessionFrameAncestors();
  if (!form || !actor || actor === "disabled" || actor.role === "student") return refused(req, "pickExpired", portal);
  const picker = { id: actor.id, role: actor.role, schoolId: actor.schoolId, academyId: actor.academyId };
  const outcome = await pickActivity({ form: Object.fromEntries(form), picker });
  if (!outcome.ok) return refused(req, outcome.code, portal);
  await audit({
    action: "lti.deepLink",
    actorId: actor.id,
    schoolId: actor.schoolId,
    academyId: actor.academyId,
    targetType: "activity",
    targetId: outcome.activityId,
    ...requestClient(req.headers),
  });
  return handoff(outcome.returnUrl, outcome.jwt, portal);
}

/** GET /api/lti/jwks: the tool's public keys (features/lti/server/keys.ts), for any platform to fetch. */
export async function ltiJwks(): Promise<Response> {
  return Response.json(await toolJwks(), { headers: { "Cache-Control": "public, max-age=300" } });
}
