import { type NextRequest, NextResponse } from "next/server";
import { PENDING_CODE_COOKIE } from "@/platform/auth/cookies";
import { readProxySession } from "@/platform/auth/proxy-session";
import { areaOf, homeOf } from "@/platform/auth/roles";
import { frameAncestorsOf, framedSigninRedirect } from "@/platform/security/frame-pass";
import { contentSecurityPolicy, originOf } from "@/platform/security/headers";

/**
 * Fast redirects only (docs/architecture.md layer 1): /dashboard → student home; signed
 * out → /signin?from=…; wrong role → own home. Every layout, page, action and
 * route handler checks again against the database.
 */
export default async function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  if (pathname === "/dashboard" || pathname === "/dashboard/") {
    return NextResponse.redirect(new URL("/dashboard/student/home", req.url));
  }
  if (pathname === "/auth/auth-with-code" && req.nextUrl.searchParams.has("code")) {
    // Move the sign-in code from the URL into a short-lived cookie, so it never
    // stays in the address bar or the history of a shared tablet.
    const res = NextResponse.redirect(new URL("/auth/auth-with-code", req.url));
    res.cookies.set(PENDING_CODE_COOKIE, (req.nextUrl.searchParams.get("code") ?? "").slice(0, 64), {
      httpOnly: true,
      sameSite: "lax",
      secure: req.nextUrl.protocol === "https:",
      path: "/auth",
      maxAge: 300,
    });
    return res;
  }
  const area = areaOf(pathname);
  const session = await readProxySession(req);
  if (area) {
    if (!session) {
      const url = new URL("/signin", req.url);
      url.searchParams.set("from", `${pathname}${search}`);
      return NextResponse.redirect(url);
    }
    if (session.role !== area) return NextResponse.redirect(new URL(homeOf(session.role), req.url));
  }
  const secret = process.env.AUTH_SECRET ?? "";
  const portal = session?.frameAncestors ?? [];
  const framedSignin = framedSigninRedirect(
    { pathname, dest: req.headers.get("sec-fetch-dest"), session: portal },
    secret,
  );
  if (framedSignin) return NextResponse.redirect(new URL(framedSignin, req.url));
  const headers = new Headers(req.headers);
  headers.set("x-manabiya-path", `${pathname}${search}`);
  // a fresh nonce per request: Next reads it from the request's CSP and puts it on its scripts
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, {
    dev: process.env.NODE_ENV !== "production",
    formTargets: [
      originOf(process.env.GOOGLE_ISSUER ?? "https://accounts.google.com"),
      originOf(process.env.ENTRA_ISSUER ?? "https://login.microsoftonline.com"),
    ].filter((o): o is string => o !== null),
    // an LTI session's pages in the portal's iframe (platform/auth/verified-signin-start.ts), the refused launch's
    // and the open-in-a-new-window page by a frame pass (platform/security/frame-pass.ts); every other: 'none'
    frameAncestors: frameAncestorsOf({ pathname, pass: req.nextUrl.searchParams.get("f"), session: portal }, secret),
  });
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("Content-Security-Policy", csp);
  return res;
}

// api/lti/deep-link answers with its own policy: its page's form goes to the portal (features/lti/server/routes.ts)
export const config = {
  matcher: [
    "/((?!_next/|api/auth/|api/v1/|api/lti/deep-link|favicon.ico|robots.txt|.*\\.(?:png|svg|ico|woff2?|ttf|css|js)$).*)",
  ],
};
