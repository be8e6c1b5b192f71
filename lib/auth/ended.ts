import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { SESSION_COOKIES } from "./cookies";

const reasonSchema = z.enum(["userDisabled", "expired"]).catch("expired");

/** Ends a session the server no longer accepts (disabled account): clears the cookie, back to /signin. */
export function GET(req: NextRequest) {
  const reason = reasonSchema.parse(req.nextUrl.searchParams.get("reason"));
  const url = new URL("/signin", req.url);
  if (reason === "userDisabled") url.searchParams.set("error", reason);
  const res = NextResponse.redirect(url);
  for (const name of SESSION_COOKIES) res.cookies.delete(name);
  return res;
}
