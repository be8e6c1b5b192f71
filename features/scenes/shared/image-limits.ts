/**
 * Images in scenes and options (features/scenes/README.md "Images"), zod-free so the editor can
 * check a file before sending it. The server decides again on the bytes themselves.
 */

/** At most 5 MiB uploaded: a phone photo fits, the stored copy is far smaller (resized, re-encoded). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The longest edge kept: sharp on a projector, light enough for a shared school network. */
export const MAX_IMAGE_EDGE = 1600;
/** Pixels decoded at most (sharp's limitInputPixels): 40 megapixels, more than any camera sends; a decompression bomb is refused at its header. */
export const MAX_INPUT_PIXELS = 40_000_000;
/**
 * Above this many pixels, a file must bring at least one byte per MAX_PIXELS_PER_BYTE pixels:
 * a flat 6300×6300 WebP of 2 KB costs seconds of CPU and 170 MB to decode, for a picture
 * nobody draws. A small image is cheap whatever its ratio.
 */
export const RATIO_CHECK_PIXELS = 4_000_000;
export const MAX_PIXELS_PER_BYTE = 4_000;
/**
 * The most bytes an image is stored with: a 1,600 px photo as WebP is a few hundred KB, but
 * its PNG can be several MB, more than it was uploaded with; such an image is stored as WebP,
 * and one still larger is refused (an exported activity carries its images).
 */
export const MAX_STORED_BYTES = 1024 * 1024;
/** Alt text: required, at most this many characters. */
export const MAX_ALT_LENGTH = 500;
/** The types accepted, told by the bytes, never by the file name or the declared type. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** Why an image was refused: the keys of SceneEditor.image.problems in the catalogues. */
export type ImageProblem = "tooLarge" | "type" | "pixels" | "unreadable" | "failed" | "busy" | "quota";

/** The URL an image is served at; its id never changes meaning (rows are never updated), so the URL is immutable. */
export const imageUrl = (id: string) => `/api/v1/images/${id}`;
