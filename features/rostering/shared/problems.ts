import { createTranslator } from "use-intl/core";
import ja from "@/messages/ja.json";
import type { Problem } from "@/features/rostering/shared/oneroster-model";

/**
 * The closed list of problems the import finds against the database (the reader's own are in
 * features/rostering/shared/oneroster-problems.ts), and the plan's warnings (`noShussekiNo`). Each code is a key of the `RosterImportProblems` namespace in
 * messages/{ja,ja-ruby,ja-kana}.json; `message` is the Japanese text the command line prints.
 */
export const ROSTER_IMPORT_CODES = [
  "emailTaken",
  "seatTaken",
  "schoolOfOtherAcademy",
  "idUnusable",
  "roleChanged",
  "unknownSchool",
  "umiTaken",
  "linkRoleMismatch",
  "otherSchool",
  "graduateInSet",
  "noShussekiNo",
] as const;
export type RosterImportCode = (typeof ROSTER_IMPORT_CODES)[number];

const t = createTranslator({ locale: "ja", messages: ja, namespace: "RosterImportProblems" });

export function importProblem(
  code: RosterImportCode,
  file: string,
  line: number,
  column: string,
  extra: Record<string, string | number> = {},
): Problem {
  const params = { ...extra, file, line, column };
  return { file, line, column, code, params, message: t(code, params) };
}
