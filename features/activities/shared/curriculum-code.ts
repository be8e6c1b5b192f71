import { z } from "zod";

/**
 * The 学習指導要領コード: MEXT's code of an item of the course of study (教育データ標準), 16 digits, set on an
 * activity and on each scene (the scene's wins) and sent with the learning records (features/lti/README.md).
 */
export const CURRICULUM_CODE = /^[0-9]{16}$/;

/** A stored code (an activity file's, a row's): exactly 16 ASCII digits. */
export const curriculumCodeSchema = z.string().regex(CURRICULUM_CODE);

/**
 * A code as typed in the editor: full-width digits read as digits (NFKC) and spaces around ignored; empty clears it
 * (null); anything but 16 digits is refused.
 */
export const curriculumCodeInput = z
  .string()
  .max(100)
  .transform((typed) => typed.normalize("NFKC").trim())
  .pipe(z.union([z.literal("").transform(() => null), curriculumCodeSchema]));

/** The typed code as it will be stored (null: cleared), or undefined when it is not one. */
export function readCurriculumCode(typed: string): string | null | undefined {
  const parsed = curriculumCodeInput.safeParse(typed);
  return parsed.success ? parsed.data : undefined;
}
