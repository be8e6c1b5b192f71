/**
 * Security headers (docs/security.md). The Content-Security-Policy is made
 * per request by the proxy with a fresh nonce that Next puts on its own
 * scripts: no third-party origin anywhere, except the Google sign-in
 * issuer as a form target (the sign-in form redirects there).
 */
export function contentSecurityPolicy(
  nonce: string,
  options: { dev: boolean; formTargets: string[]; frameAncestors?: string[] },
): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    // React style props (bar widths) and KaTeX's inline sizes
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${options.dev ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${options.formTargets.map((o) => ` ${o}`).join("")}`,
    frameAncestorsDirective(options.frameAncestors ?? []),
  ].join("; ");
}

/**
 * The origins an LTI session's pages may be framed by (the session token's `fa`, set at the launch from the
 * academy's registered platform: its issuer and auth login URL): http(s) origins only, nothing else reaches the
 * policy. Any other session, or none, gets `frame-ancestors 'none'`.
 */
export function framingOrigins(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const origins = list.map((v) => (typeof v === "string" ? originOf(v) : null));
  return [...new Set(origins.filter((o): o is string => o !== null && /^https?:\/\/[a-z0-9.:[\]-]+$/i.test(o)))];
}

/** `frame-ancestors` of a policy: those origins, or none. */
export function frameAncestorsDirective(origins: string[]): string {
  return `frame-ancestors ${origins.length ? origins.join(" ") : "'none'"}`;
}

/** The origin of a URL, or null. */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Headers on every response (next.config.ts). */
export const STATIC_SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** Those, and HSTS in production: what every response of the app carries (next.config.ts, server/main.ts's own routes). */
export function staticSecurityHeaders(production: boolean): { key: string; value: string }[] {
  return production
    ? [...STATIC_SECURITY_HEADERS, { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }]
    : STATIC_SECURITY_HEADERS;
}

/**
 * A state-changing request from a browser must come from this site: an
 * `Origin` of another site, or `null` (sandboxed frames, some redirects), is
 * refused. Requests without the header (not from a browser) pass; they
 * cannot carry a victim's cookies anyway.
 */
export function sameOrigin(headers: Pick<Headers, "get">, requestUrl: string): boolean {
  const origin = headers.get("origin");
  if (origin === null) return true;
  if (origin === "null") return false;
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  try {
    const o = new URL(origin);
    if (host) return o.host === host;
    return o.origin === new URL(requestUrl).origin;
  } catch {
    return false;
  }
}
