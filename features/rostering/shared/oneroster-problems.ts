import { createTranslator } from "use-intl/core";
import ja from "@/messages/ja.json";
import type { Problem } from "./oneroster-model";

/**
 * The closed list of things a reader reports. Each code is a key of the `RosterProblems`
 * namespace in messages/{ja,ja-ruby,ja-kana}.json; every message takes {file}, {line} and
 * {column}, some also {value}, {expected}, {encoding}, {other}.
 */
export const ROSTER_PROBLEM_CODES = [
  // the package
  "zipInvalid",
  "packageTooLarge",
  "notAtRoot",
  "manifestMissing",
  "fileMissing",
  "fileNotAbsent",
  "fileUnreadable",
  // one file's bytes and CSV
  "encodingNotUtf8",
  "csvSyntax",
  "fileEmpty",
  "headerMismatch",
  // manifest.csv
  "manifestHeader",
  "manifestVersion",
  "onerosterVersion",
  "manifestRowMissing",
  "manifestMode",
  "manifestUnknownRow",
  // one field
  "fieldRequired",
  "fieldEnum",
  "fieldUuid",
  "fieldDate",
  "fieldDateTime",
  "fieldBoolean",
  "fieldGrade",
  "fieldInteger",
  "fieldHalfWidthKana",
  "bulkStatusNotEmpty",
  "deltaStatusMissing",
  "fieldNotEmpty",
  "fieldTooLong",
  "fieldFormula",
  "fieldSubjectCode",
  // the Japan Profile's row rules (profile.ts)
  "sessionTitle",
  "orgIdentifier",
  "enabledUserFalse",
  "adminPrimary",
  "studentPrimary",
  // across rows and files
  "duplicateId",
  "missingReference",
  "twoHomerooms",
  "shussekiNoCollision",
  "secondaryWithoutPrimary",
  "tooManyProblems",
] as const;
export type RosterProblemCode = (typeof ROSTER_PROBLEM_CODES)[number];

export type ProblemParams = Record<string, string | number>;

const t = createTranslator({ locale: "ja", messages: ja, namespace: "RosterProblems" });

/** How much of a bad value a message repeats. */
const MAX_VALUE = 40;
function shortValue(value: string): string {
  const chars = Array.from(value);
  return chars.length > MAX_VALUE ? `${chars.slice(0, MAX_VALUE).join("")}…` : value;
}

/** A problem at `file` line `line` column `column` (0 / "" = the whole file or package), with its Japanese message. */
export function rosterProblem(
  code: RosterProblemCode,
  file: string,
  line: number,
  column: string,
  extra: ProblemParams = {},
): Problem {
  const params: ProblemParams = { ...extra, file: file || "zip", line, column: column || "-" };
  if (typeof params.value === "string") params.value = shortValue(params.value);
  return { file, line, column, code, params, message: t(code, params) };
}

/** Collects problems up to a cap, so a file of 100,000 bad rows does not fill memory with messages. */
export class ProblemList {
  readonly items: Problem[] = [];
  private capped = false;
  constructor(private readonly max = 1000) {}
  add(code: RosterProblemCode, file: string, line: number, column: string, extra?: ProblemParams): void {
    if (this.items.length < this.max) {
      this.items.push(rosterProblem(code, file, line, column, extra));
    } else if (!this.capped) {
      this.capped = true;
      this.items.push(rosterProblem("tooManyProblems", "", 0, "", { count: this.max }));
    }
  }
  get count(): number {
    return this.items.length;
  }
}
