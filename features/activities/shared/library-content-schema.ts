import { z } from "zod";
import { activityContentShape } from "./template-content-schema";
import { GRADES, SUBJECTS, UNIT_MAX } from "./library-tags";
import { FEEDBACK_TIMINGS } from "./modes";

/**
 * A bundled library file (prisma/content/library/*.json, docs/product-design.md "The academy library"): a ready
 * activity written by us, with the tags the library's filters read and the feedback timing its copies start with.
 * Its scenes are the activity file's (`activityContentShape`: any type `sceneSchema` knows), so a scene type added
 * to features/scenes can be used here as it is.
 */
export const libraryFileSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{3,64}$/),
  subject: z.enum(SUBJECTS),
  grade: z.enum(GRADES),
  unit: z.string().trim().min(1).max(UNIT_MAX),
  feedback: z.enum(FEEDBACK_TIMINGS),
  ...activityContentShape,
});
export type LibraryFile = z.infer<typeof libraryFileSchema>;
