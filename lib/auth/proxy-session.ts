import { getToken } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { isRole, type Role } from "./roles";

/**
 * Reads the role from the session cookie for the proxy's fast redirects only.
 * Never the protection of data: pages and actions re-check against the database.
 */
export async function readProxySession(req: NextRequest): Promise<{ id: string; role: Role } | null> {
  const secret = process.env.AUTH_SECRET;
  if (!secret) return null;
  const secureCookie = req.nextUrl.protocol === "https:";
  try {
    const token = await getToken({ req, secret, secureCookie });
    if (!token?.sub || !isRole(token.role)) return null;
    return { id: token.sub, role: token.role };
  } catch {
    return null;
  }
}
