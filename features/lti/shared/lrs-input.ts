import { z } from "zod";
import { httpsEndpoint } from "./platform-input";

/**
 * An academy's Learning Record Store as an operator or a manager enters it (features/lti/README.md "Learning
 * records"): the xAPI endpoint (HTTPS; plain HTTP only on the machine itself), its Basic credentials (key and
 * secret), and whether the person's name goes with each statement (off unless turned on).
 */
export const lrsInput = z.object({
  endpoint: httpsEndpoint.transform((v) => v.replace(/\/+$/, "")),
  key: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .refine((v) => !v.includes(":"), "no colon"),
  secret: z.string().min(1).max(300),
  includeNames: z.boolean().default(false),
});
export type LrsInput = z.infer<typeof lrsInput>;

export const lrsCliInput = lrsInput.extend({ academyId: z.uuid("must be an academy id (see list-academies)") });

/** The manager's dialog: the switch comes as a checkbox ("on" when ticked, absent otherwise). */
export const lrsFormInput = lrsInput.extend({
  includeNames: z.preprocess((v) => v === true || v === "on", z.boolean()),
});
