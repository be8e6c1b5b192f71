/**
 * The session cookie. Served over https (AUTH_URL is https) it is
 * `__Host-manabiya.session`: Secure, HttpOnly, SameSite=Lax, Path=/, no
 * Domain, so no subdomain or plain-http page can set or overwrite it. Over
 * plain http (a laptop on the school LAN, the tests) it has no prefix, since
 * browsers refuse Secure cookies there. next-auth seals the token with the
 * cookie's name as salt.
 */
export const SESSION_COOKIE = "manabiya.session";
export const HOST_SESSION_COOKIE = "__Host-manabiya.session";
/** Every name a session cookie may have had (the first two: next-auth's defaults before this one), for clearing. */
export const SESSION_COOKIES = [
  "authjs.session-token",
  "__Secure-authjs.session-token",
  SESSION_COOKIE,
  HOST_SESSION_COOKIE,
];

export function sessionCookieConfig(publicUrl: string | undefined) {
  const secure = publicUrl?.startsWith("https://") ?? false;
  return {
    name: secure ? HOST_SESSION_COOKIE : SESSION_COOKIE,
    options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure },
  };
}

/** What every cookie of a framed session has: sent in the portal's cross-site frame, kept in its partition. */
export const framedCookieAttributes = { sameSite: "none" as const, partitioned: true, path: "/", secure: true };

/**
 * The session cookie of a sign-in that may run inside another site's iframe (an LTI launch from the portal,
 * features/lti): the same name and token, but `SameSite=None` (sent in the portal's cross-site frame) and
 * `Partitioned` (CHIPS: kept in the portal's partition, not a third-party cookie browsers block; in a new window the
 * partition is our own site). Secure always: browsers accept it over https and on http://localhost only. Every
 * state-changing request checks its Origin instead of relying on SameSite (docs/security.md "CSRF").
 */
export function framedSessionCookieOptions(expires: Date) {
  return { ...framedCookieAttributes, httpOnly: true, expires };
}

/**
 * The framed session cookie `name` cleared: a Partitioned cookie is deleted only by a Set-Cookie that names the
 * partition (Partitioned, Secure) — next-auth's deletion does not, and would leave it in the portal's partition.
 */
export function clearedFramedSessionCookie(name: string) {
  return { name, value: "", ...framedCookieAttributes, httpOnly: true, maxAge: 0 };
}

/** A scanned sign-in code between the QR URL and the sign-in POST (proxy.ts → signInWithCode). */
export const PENDING_CODE_COOKIE = "manabiya-pending-code";
