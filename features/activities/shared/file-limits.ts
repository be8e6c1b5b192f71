/**
 * The exported activity file (docs/product-design.md "Sharing activities"),
 * zod-free so that the browser can check a file's size before sending it.
 * 960 KiB: under Next's 1 MB limit on a server action's whole request body (the
 * multipart wrapping included); a large real activity (100 scenes of short texts)
 * is tens of KB, the rest is room for its images (base64, docs/adr/0057-images-re-encoded-by-sharp.md).
 */
export const ACTIVITY_FILE_MAX_BYTES = 960 * 1024;
/** At most this many images in one file. */
export const MAX_FILE_IMAGES = 50;
export const ACTIVITY_FILE_FORMAT = "manabiya-activity";
export const ACTIVITY_FILE_VERSION = 1;

/** Why a file was refused: the keys of ActivityTransfer.problems in the catalogues. */
export type ActivityFileProblem =
  | { code: "empty" | "tooLarge" | "binary" | "notJson" | "formatMissing" | "invalidCharacters" }
  | { code: "formatUnknown" | "versionUnknown"; found: string }
  | { code: "sceneType"; scene: number; found: string }
  | { code: "sceneContent"; scene: number }
  | { code: "invalid"; field: string };
