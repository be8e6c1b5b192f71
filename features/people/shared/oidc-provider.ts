import { z } from "zod";
import { ROLES } from "@/platform/auth/roles";
import { OIDC_SLUG } from "@/platform/auth/schema";
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/;

/**
 * An academy's own OpenID Connect provider as an operator or a manager enters it. The issuer is HTTPS (the ID
 * token's signature is not checked in the code flow: TLS to the token endpoint authenticates it), plain HTTP only
 * on the machine itself. `identityClaim`: "email" (a verified e-mail), "sub", or another claim's name (a roster id);
 * sub and other claims match the person's roster userMasterIdentifier. An empty `clientSecret` keeps the stored one.
 */
export const oidcProviderInput = z.object({
  slug: z
    .string()
    .trim()
    .transform((v) => v.toLowerCase())
    .pipe(z.string().regex(OIDC_SLUG, "2–40 lower-case letters, digits or hyphens (the sign-in link's name)")),
  displayName: z.string().trim().min(1).max(60),
  issuer: z
    .url()
    .trim()
    .max(300)
    .refine((v) => v.startsWith("https://") || LOOPBACK.test(v), "the issuer must be an https:// URL"),
  clientId: z.string().trim().min(1).max(300),
  clientSecret: z.string().trim().max(2000).default(""),
  identityClaim: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_.:/-]{0,99}$/, 'a claim name: "email", "sub" or the roster id claim'),
  allowedRoles: z.array(z.enum(ROLES)).min(1, "at least one role").max(3),
});
export type OidcProviderInput = z.infer<typeof oidcProviderInput>;
