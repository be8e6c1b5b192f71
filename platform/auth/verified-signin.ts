import "server-only";
import { randomBytes } from "node:crypto";
import Credentials from "next-auth/providers/credentials";
import type { Role } from "./roles";

/**
 * A sign-in whose person another part of the app has already verified (an LTI 1.3 launch: features/lti): it opens
 * the same next-auth session as every other sign-in (platform/auth/config.ts, provider "verified"), with the same
 * session version, device session and second-factor rule. The hand-over is a random ticket of this process, used
 * once within seconds; it never leaves the server, so a POST to next-auth's own callback cannot name anybody.
 */
export const VERIFIED_PROVIDER = "verified";
/** The methods such a sign-in may carry, as the sign-in log and the devices list name them. */
export type VerifiedMethod = "lti";

interface Ticket {
  user: { id: string; role: Role };
  method: VerifiedMethod;
  /** The origins that may frame this session's pages (the portal's: platform/security/headers.ts). */
  frameAncestors: string[];
  expires: number;
}

const TICKET_MS = 10_000;
const KEY = Symbol.for("manabiya.verified-signin");
// on globalThis: the server script and each route bundle of Next.js load their own copy of this module
const tickets = ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map<string, Ticket>()) as Map<string, Ticket>;

/** A ticket for `user`, to hand to next-auth's signIn("verified", { ticket }). */
export function issueTicket(
  user: { id: string; role: Role },
  method: VerifiedMethod,
  frameAncestors: string[] = [],
): string {
  const now = Date.now();
  for (const [key, t] of tickets) if (t.expires < now) tickets.delete(key);
  const ticket = randomBytes(32).toString("base64url");
  tickets.set(ticket, { user, method, frameAncestors, expires: now + TICKET_MS });
  return ticket;
}

/** The person and method a ticket names, once (null: unknown, used or expired). */
export function takeTicket(ticket: unknown): Omit<Ticket, "expires"> | null {
  if (typeof ticket !== "string") return null;
  const found = tickets.get(ticket);
  tickets.delete(ticket);
  if (!found || found.expires < Date.now()) return null;
  return { user: found.user, method: found.method, frameAncestors: found.frameAncestors };
}

/** next-auth's provider of these sign-ins (platform/auth/config.ts): a ticket names the person, or nobody signs in. */
export function verifiedProvider() {
  return Credentials({
    id: VERIFIED_PROVIDER,
    credentials: { ticket: {} },
    authorize(credentials) {
      const taken = takeTicket(credentials?.ticket);
      if (!taken) return null;
      const { user, method, frameAncestors } = taken;
      return { id: user.id, role: user.role, method, frameAncestors };
    },
  });
}
