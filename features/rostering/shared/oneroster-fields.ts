/** One CSV field checked and converted by its column's kind. Pure. */
import { type Column, NAME_MAX } from "./oneroster-columns";
import { startsLikeFormula } from "@/platform/names/person-name";
import type { FileMode } from "./oneroster-model";
import type { ProblemList } from "./oneroster-problems";

export type Value = string | number | boolean | string[] | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const HALF_WIDTH_KANA = /[\uFF61-\uFF9F]/;
export const GRADES = new Set([
  "P1",
  "P2",
  "P3",
  "P4",
  "P5",
  "P6",
  "J1",
  "J2",
  "J3",
  "H1",
  "H2",
  "H3",
  "E1",
  "E2",
  "E3",
]);
/**
 * 教科コード of the Japan Profile: P010–P100 (小学校, 10 教科) and J010–J090 (中学校, 9), as the
 * Digital Agency's strict receivers check them ([DA-K], [DA-T], [DA-D], [DA-F]).
 */
export const SUBJECT_CODES = new Set([
  ...Array.from({ length: 10 }, (_, i) => `P${String((i + 1) * 10).padStart(3, "0")}`),
  ...Array.from({ length: 9 }, (_, i) => `J${String((i + 1) * 10).padStart(3, "0")}`),
]);
export const STATUSES = ["active", "tobedeleted"] as const;

export const isUuid = (s: string) => UUID.test(s);

export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  return m !== null && isDate(m[1]!);
}

/** A comma-separated list inside one field, items trimmed, empty items dropped. */
export function splitList(s: string): string[] {
  return s
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "");
}

/** Where a field is, for problems. */
export interface At {
  file: string;
  line: number;
  problems: ProblemList;
  mode: FileMode;
  /** One copy of each repeated value (the school's id on every row, grade codes, dates) per file. */
  shared?: Map<string, string>;
}

const MAX_SHARED = 50_000;
function share(value: string, at: At): string {
  const map = at.shared;
  if (!map) return value;
  const known = map.get(value);
  if (known !== undefined) return known;
  if (map.size < MAX_SHARED) map.set(value, value);
  return value;
}

/**
 * The value of one field, or null when empty or invalid (invalid adds a problem). The literal
 * `NULL` counts as empty everywhere; ids are lower-cased so references compare exactly.
 */
export function readField(col: Column, raw: string | undefined, at: At): Value {
  const text = raw === undefined || raw === "NULL" ? "" : raw;
  const bad = (code: Parameters<ProblemList["add"]>[0], extra: Record<string, string> = {}): null => {
    at.problems.add(code, at.file, at.line, col.name, { value: text, ...extra });
    return null;
  };
  if (col.kind === "status" || (col.kind === "dateTime" && col.name === "dateLastModified")) {
    if (at.mode === "bulk") return text === "" ? null : bad("bulkStatusNotEmpty");
    if (text === "") return bad("deltaStatusMissing");
  }
  if (col.kind === "ignored") return null;
  if (text === "") return col.required ? bad("fieldRequired") : null;
  if (col.mustBeEmpty) return bad("fieldNotEmpty");
  switch (col.kind) {
    case "status":
      return (STATUSES as readonly string[]).includes(text)
        ? share(text, at)
        : bad("fieldEnum", { expected: STATUSES.join(", ") });
    case "id":
      return isUuid(text) ? text.toLowerCase() : bad("fieldUuid");
    case "ref":
      return isUuid(text) ? share(text.toLowerCase(), at) : bad("fieldUuid");
    case "refs": {
      const ids = splitList(text);
      const wrong = ids.find((x) => !isUuid(x));
      if (wrong !== undefined) return bad("fieldUuid", { value: wrong });
      if (ids.length === 0 && col.required) return bad("fieldRequired");
      return ids.map((x) => share(x.toLowerCase(), at));
    }
    case "name":
      if (HALF_WIDTH_KANA.test(text)) return bad("fieldHalfWidthKana");
      if (startsLikeFormula(text)) return bad("fieldFormula");
      return text.length > (col.max ?? NAME_MAX) && Array.from(text).length > (col.max ?? NAME_MAX)
        ? bad("fieldTooLong", { max: String(col.max ?? NAME_MAX) })
        : text;
    case "text":
      return text;
    case "enum":
      return col.values?.includes(text)
        ? share(text, at)
        : bad("fieldEnum", { expected: (col.values ?? []).join(", ") });
    case "date":
      return isDate(text) ? share(text, at) : bad("fieldDate");
    case "dateTime":
      return isDateTime(text) ? share(text, at) : bad("fieldDateTime");
    case "bool": {
      const lower = text.toLowerCase();
      return lower === "true" ? true : lower === "false" ? false : bad("fieldBoolean");
    }
    case "int":
      return /^\d{1,9}$/.test(text) ? Number(text) : bad("fieldInteger");
    case "grades": {
      const grades = splitList(text);
      const wrong = grades.find((g) => !GRADES.has(g));
      return wrong === undefined ? grades.map((g) => share(g, at)) : bad("fieldGrade", { value: wrong });
    }
    case "subjectCodes": {
      const codes = splitList(text);
      const wrong = codes.find((c) => !SUBJECT_CODES.has(c));
      return wrong === undefined ? codes : bad("fieldSubjectCode", { value: wrong });
    }
    case "list":
      return splitList(text);
  }
}
