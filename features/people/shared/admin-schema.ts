import { z } from "zod";
import { emailSchema, newPasswordSchema } from "@/platform/auth/schema";
import { entraTenantInput } from "@/features/people/shared/entra";
import { oidcProviderInput } from "@/features/people/shared/oidc-provider";
import { kana, notFormula } from "@/features/people/shared/schema";
import { FORMULA_WORDS } from "@/platform/names/person-name";

/** Inputs of the administrator's command line (tools/cli/admin.ts), checked like any form's. */
const name = notFormula(
  z.string().trim().min(1, "must not be empty").max(100, "at most 100 characters"),
  FORMULA_WORDS,
);
/** The reading as the web forms take it: hiragana or katakana (it is what kana screens show). */
const nameKana = kana.default("");

export const academyInput = z.object({ name, nameKana });
export const schoolInput = z.object({
  academyId: z.uuid("must be an academy id (see list-academies)"),
  name,
  nameKana,
});
export const managerInput = z.object({
  academyId: z.uuid("must be an academy id (see list-academies)"),
  email: emailSchema,
  name,
  nameKana,
  password: newPasswordSchema.optional(),
});
export const staffPasswordInput = z.object({ email: emailSchema, password: newPasswordSchema.optional() });
export const emailInput = z.object({ email: emailSchema });
export const entraTenantCliInput = z.object({
  academyId: z.uuid("must be an academy id (see list-academies)"),
  tenantId: entraTenantInput,
});
/** `set-oidc-provider`: the academy and its provider (features/people/shared/oidc-provider.ts). */
export const oidcProviderCliInput = oidcProviderInput.extend({
  academyId: z.uuid("must be an academy id (see list-academies)"),
});
/** The file of `backup FILE` / `restore FILE`. */
const file = z.string({ error: "give the backup file: backup FILE / restore FILE" }).trim().min(1, "must not be empty");
export const backupInput = z.object({ file, force: z.boolean().default(false) });
export const restoreInput = z.object({ file });
