import { z } from "zod";

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/;
/** A URL the server calls or sends browsers to: HTTPS (plain HTTP only on the machine itself). */
export const httpsEndpoint = z
  .url()
  .trim()
  .max(500)
  .refine((v) => v.startsWith("https://") || LOOPBACK.test(v), "an https:// URL");

/**
 * An academy's LTI 1.3 platform as an operator or a manager enters it (features/lti/README.md). Every URL is HTTPS
 * (plain HTTP only on the machine itself); deployment ids come as one text, separated by commas, spaces or lines;
 * `identityClaim` is "sub" or the name of a custom claim carrying the person's OneRoster sourcedId.
 */
export const ltiPlatformInput = z.object({
  issuer: httpsEndpoint,
  clientId: z.string().trim().min(1).max(300),
  deploymentIds: z
    .string()
    .transform((v) => [...new Set(v.split(/[\s,]+/).filter(Boolean))])
    .pipe(z.array(z.string().max(300)).min(1, "at least one deployment id").max(50)),
  authLoginUrl: httpsEndpoint,
  tokenUrl: httpsEndpoint,
  jwksUrl: httpsEndpoint,
  identityClaim: z
    .string()
    .trim()
    .default("sub")
    .pipe(z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/, '"sub" or a custom claim\'s name')),
});
export type LtiPlatformInput = z.infer<typeof ltiPlatformInput>;

export const ltiPlatformCliInput = ltiPlatformInput.extend({
  academyId: z.uuid("must be an academy id (see list-academies)"),
});
