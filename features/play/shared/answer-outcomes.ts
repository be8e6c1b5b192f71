import { INVALID_CHARACTERS, REQUIRED_INPUT } from "@/features/scenes/shared/schema";

/** Why an answer does not fit its scene's schema, the reason the respondent can act on first. */
export function refusalOf(issues: { code: string; message: string }[]): string {
  if (issues.some((i) => i.message === INVALID_CHARACTERS)) return "invalidCharacters";
  if (issues.some((i) => i.code === "too_big")) return "tooLong";
  if (issues.some((i) => i.message === REQUIRED_INPUT)) return "requiredInput";
  return "invalidAnswer";
}

/**
 * The database refused a statement for the data it carries (SQLSTATE class 22
 * data exception, 23 integrity constraint, 54 program limit), not because it
 * is away: node-postgres puts the SQLSTATE in `code`, Prisma's driver
 * adapter in `meta.driverAdapterError.cause.originalCode`.
 */
export function refusedForData(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null;
  const state = e?.meta?.driverAdapterError?.cause?.originalCode ?? e?.code;
  return typeof state === "string" && /^(22|23|54)[0-9A-Z]{3}$/.test(state);
}
