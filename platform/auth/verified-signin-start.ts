import "server-only";
import { AuthError } from "next-auth";
import { signIn } from "./config";
import type { Role } from "./roles";
import { issueTicket, VERIFIED_PROVIDER, type VerifiedMethod } from "./verified-signin";

/**
 * Signs `user` in on this request's response (the session cookie), as a person another part of the app has verified
 * (platform/auth/verified-signin.ts). False when next-auth refused (the ticket was not taken).
 */
export async function signInVerified(user: { id: string; role: Role }, method: VerifiedMethod): Promise<boolean> {
  try {
    await signIn(VERIFIED_PROVIDER, { ticket: issueTicket(user, method), redirect: false });
    return true;
  } catch (error) {
    if (error instanceof AuthError) return false;
    throw error;
  }
}
