import { z } from "zod";
import { searchText } from "@/platform/db/query-text";
import { isKana, toHiragana } from "./furigana-align";
import { MAX_LISTED_WORD } from "./furigana-words";

/** How many readings one page of the school's readings page lists. */
export const READINGS_PAGE_SIZE = 50;
/** The longest reading the list keeps (the database checks it too: prisma/migrations/20261201160000_school_readings). */
export const MAX_READING = 60;

/** Where a reading of the page comes from: a name of the roster, a teacher's ruby learned in the editor, this page. */
export const READING_SOURCES = ["roster", "editor", "page"] as const;
export type ReadingSource = (typeof READING_SOURCES)[number];

/** The page's query (from the URL): the page and the text searched in words and readings. */
export const readingsQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
  q: searchText(MAX_READING).optional().catch(undefined),
});
export type ReadingsQuery = z.infer<typeof readingsQuery>;

/** The query as a URL's search part (`?q=…&page=2`; empty when it is the first page of everything). */
export function readingsSearch(q: ReadingsQuery): string {
  const params = new URLSearchParams();
  if (q.q) params.set("q", q.q);
  if (q.page > 1) params.set("page", String(q.page));
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** Message keys (SchoolReadings) of a reading left empty, not in kana, too long. */
export const READING_EMPTY = "readingEmpty";
export const READING_NOT_KANA = "readingNotKana";
export const READING_TOO_LONG = "readingTooLong";

/** A corrected reading as the page takes it: trimmed, half-width and katakana written as hiragana, kana only (ー allowed). */
export const readingInput = z
  .string()
  .trim()
  .min(1, READING_EMPTY)
  .max(MAX_READING, READING_TOO_LONG)
  .transform((s) => toHiragana(s.normalize("NFKC")))
  .refine(isKana, READING_NOT_KANA);

/** A word of the school's list, named as it is stored. */
export const listedWord = z.string().min(1).max(MAX_LISTED_WORD);
