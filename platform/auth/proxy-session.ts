import type { NextRequest } from "next/server";
import { isRole, type Role } from "./roles";
import { readSessionCookie } from "./session-token";

/**
 * Reads the role from the session cookie for the proxy's fast redirects (and an LTI session's framing origins for
 * its Content-Security-Policy) only.
 * Never the protection of data: pages and actions re-check against the database.
 */
export async function readProxySession(
  req: NextRequest,
): Promise<{ id: string; role: Role; frameAncestors: string[] } | null> {
  const secret = process.env.AUTH_SECRET;
  if (!secret) return null;
  const session = await readSessionCookie(req.cookies.getAll(), secret);
  return session && isRole(session.role)
    ? { id: session.id, role: session.role, frameAncestors: session.frameAncestors }
    : null;
}
