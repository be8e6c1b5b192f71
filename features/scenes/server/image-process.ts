import "server-only";
import { createHash } from "node:crypto";
import sharp from "sharp";
import { decodeInTurn } from "../shared/image-decode-queue";
import {
  type ImageProblem,
  type ImageType,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_EDGE,
  MAX_INPUT_PIXELS,
  MAX_PIXELS_PER_BYTE,
  MAX_STORED_BYTES,
  RATIO_CHECK_PIXELS,
} from "../shared/image-limits";

// one libvips thread per image: sharp shares libuv's thread pool with password hashing (argon2)
sharp.concurrency(1);

/** An image as stored: re-encoded bytes without metadata, its type, size and content hash. */
export interface ProcessedImage {
  bytes: Buffer;
  contentType: ImageType;
  width: number;
  height: number;
  sha256: string;
}
export type ProcessResult = { ok: true; image: ProcessedImage } | { ok: false; problem: ImageProblem };

const startsWith = (bytes: Uint8Array, sig: number[], at = 0) =>
  bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);

/** The type told by the file's first bytes (PNG, JPEG or WebP signature), or null. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return "image/webp";
  return null;
}

/** sharp's decoder for the sniffed type only (a PNG signature never reaches another decoder). */
const FORMAT: Record<ImageType, "png" | "jpeg" | "webp"> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/webp": "webp",
};

/**
 * Decodes an uploaded image and encodes it again: the signature decides the type, the
 * decoder must agree, the pixels are limited before decoding (a bomb is refused by its
 * header), the orientation is applied, the longest edge is at most MAX_IMAGE_EDGE, and no
 * metadata (EXIF, GPS, ICC, XMP, comments) is written. Only the first frame of an animation.
 * Decoded in the school's turn (./decode-queue.ts): "busy" when its queue is full.
 */
export async function processImage(school: string, input: Uint8Array): Promise<ProcessResult> {
  if (input.byteLength > MAX_IMAGE_BYTES) return { ok: false, problem: "tooLarge" };
  const type = sniffImageType(input);
  if (!type) return { ok: false, problem: "type" };
  return (await decodeInTurn(school, () => decodeAndEncode(input, type))) ?? { ok: false, problem: "busy" };
}

/**
 * A JPEG the app drew itself (a PDF's page by pdftoppm, features/scenes/server/slides-render.ts), taken as it is:
 * only its header is read (no decode, no re-encode in the server's process), and it must be a JPEG within
 * MAX_IMAGE_EDGE and MAX_STORED_BYTES, as every stored image is.
 */
export async function acceptRenderedJpeg(bytes: Buffer): Promise<ProcessResult> {
  if (bytes.byteLength > MAX_STORED_BYTES) return { ok: false, problem: "tooLarge" };
  if (sniffImageType(bytes) !== "image/jpeg") return { ok: false, problem: "type" };
  try {
    const { format, width = 0, height = 0 } = await sharp(bytes, { failOn: "error" }).metadata();
    if (format !== "jpeg" || !width || !height) return { ok: false, problem: "unreadable" };
    if (Math.max(width, height) > MAX_IMAGE_EDGE) return { ok: false, problem: "pixels" };
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    return { ok: true, image: { bytes, contentType: "image/jpeg", width, height, sha256 } };
  } catch {
    return { ok: false, problem: "unreadable" };
  }
}

async function decodeAndEncode(input: Uint8Array, type: ImageType): Promise<ProcessResult> {
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", autoOrient: true, animated: false } as const;
  try {
    const meta = await sharp(input, options).metadata();
    if (meta.format !== FORMAT[type]) return { ok: false, problem: "type" };
    const pixels = (meta.width ?? 0) * (meta.height ?? 0);
    if (pixels > MAX_INPUT_PIXELS) return { ok: false, problem: "pixels" };
    if (pixels > RATIO_CHECK_PIXELS && pixels / input.byteLength > MAX_PIXELS_PER_BYTE)
      return { ok: false, problem: "pixels" };
    const pipeline = sharp(input, options).resize({
      width: MAX_IMAGE_EDGE,
      height: MAX_IMAGE_EDGE,
      fit: "inside",
      withoutEnlargement: true,
    });
    const encoded =
      type === "image/png"
        ? pipeline.png({ compressionLevel: 9, adaptiveFiltering: true })
        : type === "image/jpeg"
          ? pipeline.jpeg({ quality: 82, mozjpeg: true })
          : pipeline.webp({ quality: 82 });
    let { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    let contentType: ImageType = type;
    if (data.byteLength > MAX_STORED_BYTES && type !== "image/webp") {
      // a photo saved as PNG: the same pixels as WebP are a fraction of the size
      ({ data, info } = await sharp(data).webp({ quality: 80 }).toBuffer({ resolveWithObject: true }));
      contentType = "image/webp";
    }
    if (data.byteLength > MAX_STORED_BYTES) return { ok: false, problem: "tooLarge" };
    return {
      ok: true,
      image: {
        bytes: data,
        contentType,
        width: info.width,
        height: info.height,
        sha256: createHash("sha256").update(data).digest("hex"),
      },
    };
  } catch (e) {
    return { ok: false, problem: e instanceof Error && /pixel limit/i.test(e.message) ? "pixels" : "unreadable" };
  }
}
