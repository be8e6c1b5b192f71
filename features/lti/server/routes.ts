import "server-only";
import { cookies } from "next/headers";
import type { NextRequest } from "next/server";
import { audit } from "@/platform/audit/log";
import { recordSignIn } from "@/platform/auth/commands";
import { signInVerified } from "@/platform/auth/verified-signin-start";
import { publicUrl } from "@/platform/env";
import { readBodyLimited } from "@/platform/http";
import { countSigninFailure } from "@/platform/ops/metrics";
import { requestClient } from "@/platform/security/client-ip";
import { type LaunchRefusal, REFUSED_PATH } from "@/features/lti/shared/claims";
import { toolJwks } from "./keys";
import { verifyLaunch } from "./launch";
import { STATE_MINUTES, startLogin, stateCookieName } from "./login";

/** A login initiation's or launch's form: small (an id_token is a few kilobytes). */
const MAX_FORM_BYTES = 64 * 1024;

/** 303: the browser follows with a GET (after a form POST too). */
const seeOther = (path: string) =>
  new Response(null, {
    status: 303,
    headers: { Location: new URL(path, publicUrl()).href, "Cache-Control": "no-store" },
  });
const refused = (code: LaunchRefusal) => seeOther(`${REFUSED_PATH}?reason=${code}`);

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
  const outcome = params ? await startLogin(params) : ({ ok: false, code: "badRequest" } as const);
  if (!outcome.ok) return refused(outcome.code);
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
    return refused(outcome.code);
  }
  if (!(await signInVerified(outcome.user, "lti"))) return refused("badRequest");
  await recordSignIn(outcome.user.id);
  await audit({ action: "signin.lti.success", actorId: outcome.user.id, academyId: outcome.academyId, ...client });
  return seeOther(outcome.landing);
}

/** GET /api/lti/jwks: the tool's public keys (features/lti/server/keys.ts), for any platform to fetch. */
export async function ltiJwks(): Promise<Response> {
  return Response.json(await toolJwks(), { headers: { "Cache-Control": "public, max-age=300" } });
}
