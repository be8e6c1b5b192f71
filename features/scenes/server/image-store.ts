import "server-only";
import { auditAll } from "@/platform/audit/log";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { env } from "@/platform/env";
import { schoolImageBytes, schoolImages, schoolImagesByHash } from "./image-queries";
import { deleteImageRows, insertImageRows } from "./image-commands";
import { type ProcessedImage, type ProcessResult, processImage } from "./image-process";
import { imageIdsOf, rewriteImages } from "../shared/image-refs";
import { imageStorage } from "./image-storage";

/** `created`: a new image (false: the school's image with the same bytes, already there). */
export type StoredImage = { id: string; width: number; height: number; contentType: string; created: boolean };
export type StoreResult = { ok: true; image: StoredImage } | Extract<ProcessResult, { ok: false }>;

/**
 * Checks, re-encodes and stores an image for the school: the metadata row first, then the
 * bytes through the storage; if the bytes cannot be written the row goes too, so no image
 * is ever listed without its bytes. The same bytes again are the school's image it already
 * has (no second copy); new bytes past the school's quota (IMAGE_QUOTA_MB) are refused.
 */
export async function storeImage(
  school: AuthorizedSchoolId,
  actorId: string | null,
  input: Uint8Array,
): Promise<StoreResult> {
  const processed = await processImage(school, input);
  return processed.ok ? keepImage(school, actorId, processed.image) : processed;
}

/** What keepImages gives: each image stored, in the order asked, or why none was. */
export type StoreAllResult = { ok: true; images: StoredImage[] } | Extract<ProcessResult, { ok: false }>;

/**
 * Stores images already checked and encoded (by processImage, or the pages the app drew: acceptRenderedJpeg), in a
 * few statements whatever their number: the school's image with the same bytes where it has one, else a new one,
 * its row before its bytes. None is stored when together they would pass the school's quota, and the new rows go
 * again when some bytes cannot be written, so no image is ever listed without its bytes.
 */
export async function keepImages(
  school: AuthorizedSchoolId,
  actorId: string | null,
  images: ProcessedImage[],
): Promise<StoreAllResult> {
  const known = await schoolImagesByHash(school, [...new Set(images.map((i) => i.sha256))]);
  const stored = new Map(
    [...known].map(([sha256, image]): [string, StoredImage] => [sha256, { ...image, created: false }]),
  );
  const fresh = [...new Map(images.filter((i) => !known.has(i.sha256)).map((i) => [i.sha256, i])).values()];
  if (fresh.length > 0) {
    const adding = fresh.reduce((sum, i) => sum + i.bytes.byteLength, 0);
    if ((await schoolImageBytes(school)) + adding > env().IMAGE_QUOTA_MB * 1024 * 1024)
      return { ok: false, problem: "quota" };
    const made = await storeFresh(school, actorId, fresh);
    if (!made) return { ok: false, problem: "failed" };
    fresh.forEach((image, n) => stored.set(image.sha256, { ...made[n]!, created: true }));
  }
  return { ok: true, images: images.map((i) => stored.get(i.sha256)!) };
}

/** New images' rows, then their bytes, then their audit entries; null (and the rows gone) when bytes fail. */
async function storeFresh(school: AuthorizedSchoolId, actorId: string | null, fresh: ProcessedImage[]) {
  const facts = fresh.map((i) => ({ ...i, byteSize: i.bytes.byteLength }));
  const rows = await insertImageRows(school, actorId, facts);
  try {
    for (const image of fresh) await imageStorage().put(image.sha256, image.bytes, image.contentType);
  } catch {
    await deleteImageRows(rows.map((r) => r.id));
    return null;
  }
  await auditAll(
    fresh.map((image, n) => ({
      action: "image.upload",
      actorId,
      schoolId: school,
      targetType: "image",
      targetId: rows[n]!.id,
      meta: { bytes: image.bytes.byteLength, type: image.contentType },
    })),
  );
  return fresh.map(({ width, height, contentType }, n) => ({ id: rows[n]!.id, width, height, contentType }));
}

/** Stores one image already checked and encoded, as keepImages does. */
export async function keepImage(
  school: AuthorizedSchoolId,
  actorId: string | null,
  image: ProcessedImage,
): Promise<StoreResult> {
  const kept = await keepImages(school, actorId, [image]);
  return kept.ok ? { ok: true, image: kept.images[0]! } : kept;
}

/**
 * The images `content` places, checked to be the school's and given their stored sizes:
 * the content to save, or null when it names an image the school does not have.
 */
export async function placeSchoolImages<T>(school: AuthorizedSchoolId, content: T): Promise<T | null> {
  const ids = imageIdsOf(content);
  if (ids.length === 0) return content;
  const found = await schoolImages(school, ids);
  if (found.length !== ids.length) return null;
  return rewriteImages(content, new Map(found.map((i) => [i.id, i])));
}
