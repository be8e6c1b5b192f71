import { z } from "zod";

/** A scene's text is at most a few thousand characters; 10,000 bounds the analyser's work per request (~70 ms). */
export const MAX_FURIGANA_TEXT = 10_000;

/** POST /api/v1/furigana: the text in stored markup; a manager names the school whose roster gives names' readings. */
export const furiganaInput = z.object({
  text: z.string().max(MAX_FURIGANA_TEXT),
  schoolId: z.uuid().optional(),
});
export type FuriganaInput = z.infer<typeof furiganaInput>;

/** The request body's byte bound: the text in UTF-8 (3 bytes a kanji) with JSON escapes and the school id. */
export const MAX_FURIGANA_BODY = MAX_FURIGANA_TEXT * 6 + 1_024;
