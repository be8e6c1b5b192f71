import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { SESSION_COOKIES } from "./cookies";
import { homeOf } from "./roles";
import { getActor } from "./session";

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
  const url = new URL("/signin", req.url);
  if (reason === "userDisabled" && actor === "disabled") url.searchParams.set("error", reason);
  const res = NextResponse.redirect(url);
  for (const name of SESSION_COOKIES) res.cookies.delete(name);
  return res;
}
