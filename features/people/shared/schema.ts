import { z } from "zod";
import { DISPLAY_LANGUAGES } from "@/platform/i18n/languages";
import { filterText, searchText } from "@/platform/db/query-text";
import { FORMULA_ISSUE, startsLikeFormula } from "@/platform/names/person-name";

export const STUDENT_SORTS = [
  "grade",
  "name",
  "nameKana",
  "nickname",
  "email",
  "group",
  "lastSignIn",
  "status",
] as const;
export type StudentSort = (typeof STUDENT_SORTS)[number];
export const PAGE_SIZE = 50;

/** The students table's query (from the URL): paging, sort, class filter, name/kana search. */
export const studentListQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
  sort: z.enum(STUDENT_SORTS).catch("grade"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
  class: filterText(20).optional().catch(undefined),
  q: searchText(100).optional().catch(undefined),
  /** Students at school (the default) or graduates (卒業生: disabled at a rollover, keeping their last seat). */
  view: z.enum(["current", "graduates"]).catch("current"),
});
export type StudentListQuery = z.infer<typeof studentListQuery>;

/** A search that is a 番号 (1–99, half- or full-width digits, as a Japanese keyboard may type them): that number, else null. */
export function seatNumberOf(text: string): number | null {
  const digits = text.normalize("NFKC").trim();
  if (!/^\d{1,2}$/.test(digits)) return null;
  const n = Number(digits);
  return n >= 1 ? n : null;
}

/** A name, reading or nickname as the forms take it: never one a spreadsheet would run as a formula. */
export const notFormula = (text: z.ZodString, message = FORMULA_ISSUE) =>
  text.refine((v) => !startsLikeFormula(v), message);
/** A person's or school's name as the forms take it. */
export const personName = notFormula(z.string().trim().min(1).max(100));
/** A reading in hiragana or katakana (spaces, ー and ・ allowed), as people and schools have. */
export const kana = notFormula(
  z
    .string()
    .trim()
    .max(100)
    .regex(/^[\p{Script=Hiragana}\p{Script=Katakana}ー・\s]*$/u, "kana"),
);

export const studentInput = z.object({
  name: personName,
  nameKana: kana.optional().or(z.literal("")),
  nickname: notFormula(z.string().trim().max(50)).optional(),
  email: z
    .union([z.literal(""), z.email().max(254)])
    .optional()
    .transform((v) => (v ? v.toLowerCase() : null)),
  grade: z.coerce.number().int().min(1).max(12),
  className: z.string().trim().min(1).max(10),
  number: z.coerce.number().int().min(1).max(99),
  group: z
    .union([z.literal(""), z.string().regex(/^[A-Z]{1,3}$/)])
    .optional()
    .transform((v) => v || null),
  /** The student's display language at sign-in ("": the students' default); left out: unchanged. */
  displayLanguage: z
    .union([z.literal(""), z.enum(DISPLAY_LANGUAGES)])
    .transform((v) => v || null)
    .optional(),
});
export type StudentInput = z.infer<typeof studentInput>;

export const studentRefs = z.object({ studentIds: z.array(z.uuid()).min(1).max(2000) });
