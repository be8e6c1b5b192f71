import { z } from "zod";
import { emailSchema, newPasswordSchema } from "@/lib/auth/schema";

/** Inputs of the administrator's command line (scripts/admin.ts), checked like any form's. */
const name = z.string().trim().min(1, "must not be empty").max(100, "at most 100 characters");
const nameKana = z.string().trim().max(100, "at most 100 characters").default("");

export const academyInput = z.object({ name, nameKana });
export const schoolInput = z.object({ academyId: z.uuid("must be an academy id (see list-academies)"), name, nameKana });
export const managerInput = z.object({
  academyId: z.uuid("must be an academy id (see list-academies)"),
  email: emailSchema,
  name,
  nameKana,
  password: newPasswordSchema.optional(),
});
export const staffPasswordInput = z.object({ email: emailSchema, password: newPasswordSchema.optional() });
export const emailInput = z.object({ email: emailSchema });
