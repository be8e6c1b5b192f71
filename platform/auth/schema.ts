import { z } from "zod";

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((v) => v.toLowerCase());

/** A password someone chooses (reset link, administrator command line). */
export const newPasswordSchema = z.string().min(8).max(200);

export const signinInputSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(1024),
});

/** `from` after sign-in: only same-origin relative paths (no open redirect). */
export function safeFromPath(from: unknown): string | null {
  if (typeof from !== "string" || from.length > 2048) return null;
  if (!from.startsWith("/") || from.startsWith("//") || from.startsWith("/\\")) return null;
  if (/[\u0000-\u001f\\]/.test(from)) return null;
  return from;
}

/** An academy's own sign-in provider's name in its link, /signin?academy=<slug> (next-auth's provider "oidc-<slug>"). */
export const OIDC_SLUG = /^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/;
