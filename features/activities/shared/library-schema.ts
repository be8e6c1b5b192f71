import { z } from "zod";
import { filterText, searchText, storableText } from "@/platform/db/query-text";
import { GRADES, STAGES, SUBJECTS, UNIT_MAX } from "./library-tags";

const id = z.uuid();

/** A tag set: no subject / no grade is "" or absent; the unit is trimmed free text, storable, bounded. */
export const tagsSchema = z.object({
  subject: z.preprocess((v) => (v === "" ? undefined : v), z.enum(SUBJECTS).optional()),
  grade: z.preprocess((v) => (v === "" ? undefined : v), z.enum(GRADES).optional()),
  unit: z
    .string()
    .transform((s) => storableText(s).replace(/\s+/g, " ").trim())
    .pipe(z.string().max(UNIT_MAX))
    .default(""),
});
export type LibraryTags = z.infer<typeof tagsSchema>;

/** Publish (or publish again) a school's activity: managers name the school. */
export const publishSchema = tagsSchema.extend({ schoolId: id, activityId: id });
export const entryRefSchema = z.object({ entryId: id });
export const entryTagsSchema = tagsSchema.extend({ entryId: id });
/** Copy an entry into a school: teachers their own (schoolId optional), managers a school of the academy. */
export const copyEntrySchema = z.object({
  schoolId: id.optional(),
  entryId: id,
  title: z.string().trim().max(200).optional(),
});

export const LIBRARY_PAGE_SIZE = 20;
const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** The library page's URL (GET form): title search, subject, grade or stage, unit, page; anything unknown means "all". */
export const libraryFilterSchema = z.object({
  q: z.preprocess((v) => one(v) ?? "", searchText(200)),
  subject: z.preprocess(one, z.enum(SUBJECTS).optional().catch(undefined)),
  grade: z.preprocess(
    one,
    z
      .enum([...STAGES, ...GRADES])
      .optional()
      .catch(undefined),
  ),
  unit: z.preprocess((v) => one(v) ?? "", filterText(UNIT_MAX)),
  page: z.preprocess(one, z.coerce.number().int().min(1).max(10_000).catch(1)).default(1),
});
export type LibraryFilter = z.infer<typeof libraryFilterSchema>;
