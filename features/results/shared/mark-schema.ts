import { z } from "zod";
import { COMMENT_MAX, MARK_VERDICTS } from "./mark-verdicts";

/**
 * A teacher's comment: rich-text markup as scene texts take it (platform/richtext: bold, colour, ruby…; rendered,
 * never HTML), line ends made \n,
 * trimmed, at most COMMENT_MAX characters, no control characters but line breaks and tabs
 * (PostgreSQL refuses NUL in text).
 */
export const markComment = z
  .string()
  .transform((s) => s.replace(/\r\n?/g, "\n").trim())
  .pipe(
    z
      .string()
      .max(COMMENT_MAX)
      .regex(/^[^\u0000-\u0008\u000b-\u001f\u007f]*$/u),
  );

/** Mark (free text and drawing) and/or comment (any answer) one response; nothing to keep clears it. */
export const markInput = z.object({
  schoolId: z.uuid().optional(),
  activityId: z.uuid(),
  responseId: z.uuid(),
  verdict: z.enum(MARK_VERDICTS).nullable(),
  comment: markComment,
  /** The mark time the form showed (null: it showed none), so a save over another teacher's newer mark can say so. */
  seen: z.iso.datetime().nullable().optional(),
});
export type MarkInput = z.infer<typeof markInput>;
