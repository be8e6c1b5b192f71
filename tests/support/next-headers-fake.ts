/**
 * next/headers outside a request, for integration tests that call route
 * handlers, server actions and session checks directly. Each such test file:
 *
 *   vi.mock("next/headers", () => import("./next-headers-fake"));
 *   import { session, sessionCookieOf } from "./next-headers-fake";
 *   session.cookie = await sessionCookieOf(userId, "teacher");
 *
 * The request then carries that session cookie ("" = signed out). Vitest runs
 * every test file in its own module graph, so files do not share `session`.
 */
import { encode } from "next-auth/jwt";
import { SESSION_COOKIE } from "@/platform/auth/cookies";

/** The Cookie header of the request being faked (`name=value`, or "" for none). */
export const session = { cookie: "" };

export async function headers(): Promise<Headers> {
  return new Headers(session.cookie ? { cookie: session.cookie } : {});
}

export async function cookies() {
  const at = session.cookie.indexOf("=");
  const list = session.cookie ? [{ name: session.cookie.slice(0, at), value: session.cookie.slice(at + 1) }] : [];
  return {
    has: (name: string) => list.some((c) => c.name === name),
    getAll: () => list,
    get: (name: string) => list.find((c) => c.name === name),
  };
}

/** The session cookie next-auth sets after a sign-in (`sv`: the account's session version when it was made). */
export async function sessionCookieOf(sub: string, role: string, sv?: number, sid?: string): Promise<string> {
  const token = { sub, role, ...(sv === undefined ? {} : { sv }), ...(sid === undefined ? {} : { sid }) };
  return `${SESSION_COOKIE}=${await encode({ token, secret: process.env.AUTH_SECRET!, salt: SESSION_COOKIE })}`;
}
