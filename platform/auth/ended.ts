import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { env } from "@/platform/env";
import { OPEN_WINDOW_PAGE, withFramePass } from "@/platform/security/frame-pass";
import { clearedFramedSessionCookie, SESSION_COOKIES, sessionCookieConfig } from "./cookies";
import { homeOf } from "./roles";
import { getActor, sessionFrameAncestors } from "./session";

const reasonSchema = z.enum(["userDisabled", "expired"]).catch("expired");

/**
 * Where a session the server no longer accepts (disabled account, ended or
 * expired session) lands: clears the cookie, back to /signin. A GET changes
 * nothing for a session that still works: a link to this page from anywhere
 * cannot sign anyone out (signing out is a POST: platform/auth/actions.ts).
 */
export async function GET(req: NextRequest) {
  const actor = await getActor();
  if (actor && actor !== "disabled") return NextResponse.redirect(new URL(homeOf(actor.role), req.url));
  const reason = reasonSchema.parse(req.nextUrl.searchParams.get("reason"));
  const portal = await sessionFrameAncestors();
  const url = new URL(portal.length ? withFramePass(OPEN_WINDOW_PAGE, portal, env().AUTH_SECRET) : "/signin", req.url);
  if (reason === "userDisabled" && actor === "disabled" && !portal.length) url.searchParams.set("error", reason);
  const res = NextResponse.redirect(url);
  for (const name of SESSION_COOKIES) res.cookies.delete(name);
  // a launched session's cookie is partitioned: cleared in its partition (the name's entry above is replaced)
  if (portal.length) res.cookies.set(clearedFramedSessionCookie(sessionCookieConfig(env().AUTH_URL).name));
  return res;
}
