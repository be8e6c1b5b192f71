import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { framingOrigins } from "./headers";

/**
 * A frame pass: the portal's origins, signed by us, in the address of a page a launched person may reach in the
 * portal's iframe without a session (docs/security.md "Framing and cookies of LTI sessions"): the refused launch's
 * page, and the page that says to open us in a new window (after sign-out, or instead of the sign-in form). Only
 * those pages read it (`PASS_PAGES`); it lives `PASS_MINUTES`. Anyone may copy the address, but it names only the
 * registered portal's origins, and those pages hold no form.
 */
export const PASS_MINUTES = 15;
export const REFUSED_PAGE = "/lti/refused";
/** "Open Manabiya in a new window": what the portal's iframe shows instead of the sign-in form. */
export const OPEN_WINDOW_PAGE = "/lti/open";
const PASS_PAGES = [REFUSED_PAGE, OPEN_WINDOW_PAGE];
/** The sign-in form: never framed (clickjacking of the password). */
const SIGNIN_PAGE = "/signin";

const keys = new Map<string, Buffer>();
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "manabiya", "frame-pass", 32));
    keys.set(secret, key);
  }
  return key;
}

const mac = (body: string, secret: string) => createHmac("sha256", keyOf(secret)).update(body).digest();

/** A pass for `origins` (http(s) origins only), valid PASS_MINUTES from `now`. */
export function makeFramePass(origins: string[], secret: string, now = Date.now()): string {
  const body = Buffer.from(
    JSON.stringify({ o: framingOrigins(origins), e: Math.floor(now / 1000) + PASS_MINUTES * 60 }),
  ).toString("base64url");
  return `${body}.${mac(body, secret).toString("base64url")}`;
}

/** The origins of a pass we signed that has not expired; [] for anything else. */
export function readFramePass(pass: string | null | undefined, secret: string, now = Date.now()): string[] {
  const [body, tag, extra] = (pass ?? "").slice(0, 2000).split(".");
  if (!secret || !body || !tag || extra !== undefined) return [];
  const given = Buffer.from(tag, "base64url");
  const expected = mac(body, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [];
  try {
    const { o, e } = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { o?: unknown; e?: unknown };
    return typeof e === "number" && e * 1000 > now ? framingOrigins(o) : [];
  } catch {
    return [];
  }
}

/** An address on our site with a pass for `origins` (none when there are no origins). */
export function withFramePass(path: string, origins: string[], secret: string): string {
  if (!origins.length) return path;
  return `${path}${path.includes("?") ? "&" : "?"}f=${makeFramePass(origins, secret)}`;
}

/**
 * Who may frame a page: the sign-in form nobody; the pass pages the origins of a valid pass (`f`), else the
 * session's; every other page the session's (an LTI session: its portal's origins; any other: none).
 */
export function frameAncestorsOf(
  page: { pathname: string; pass: string | null; session: string[] },
  secret: string,
): string[] {
  if (page.pathname === SIGNIN_PAGE) return [];
  if (PASS_PAGES.includes(page.pathname)) {
    const passed = readFramePass(page.pass, secret);
    return passed.length ? passed : page.session;
  }
  return page.session;
}

/**
 * The sign-in form asked for inside a frame (`Sec-Fetch-Dest: iframe`) by a browser whose session came from a
 * portal (an ended one: its cookie still names the origins): the "open in a new window" page instead, with a pass
 * for those origins. null: the sign-in form as usual.
 */
export function framedSigninRedirect(
  page: { pathname: string; dest: string | null; session: string[] },
  secret: string,
): string | null {
  if (page.pathname !== SIGNIN_PAGE || page.dest !== "iframe" || !page.session.length) return null;
  return withFramePass(OPEN_WINDOW_PAGE, page.session, secret);
}
