import { z } from "zod";

/**
 * An academy's Microsoft Entra ID tenant as a manager or the operator types it: the directory (tenant) id, a GUID,
 * stored lower-case; empty unbinds the academy (nobody of it signs in with Microsoft).
 */
export const entraTenantInput = z
  .string()
  .trim()
  .transform((v) => v.toLowerCase())
  .pipe(
    z.union([z.literal(""), z.uuid("a directory (tenant) id: a GUID such as 72f988bf-86f1-41af-91ab-2d7cd011db47")]),
  )
  .transform((v) => (v === "" ? null : v));
