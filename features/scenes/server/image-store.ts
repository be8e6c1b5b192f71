import "server-only";
import { audit } from "@/platform/audit/log";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { env } from "@/platform/env";
import { schoolImageByHash, schoolImageBytes, schoolImages } from "./image-queries";
import { deleteImageRow, insertImageRow } from "./image-commands";
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

/**
 * Stores an image already checked and encoded (by processImage, or a page the app drew: acceptRenderedJpeg):
 * the school's image with the same bytes if it has one, else a new one within the quota, its row before its bytes.
 */
export async function keepImage(
  school: AuthorizedSchoolId,
  actorId: string | null,
  image: ProcessedImage,
): Promise<StoreResult> {
  const same = await schoolImageByHash(school, image.sha256);
  if (same) return { ok: true, image: { ...same, created: false } };
  if ((await schoolImageBytes(school)) + image.bytes.byteLength > env().IMAGE_QUOTA_MB * 1024 * 1024)
    return { ok: false, problem: "quota" };
  const row = await insertImageRow(school, actorId, { ...image, byteSize: image.bytes.byteLength });
  try {
    await imageStorage().put(image.sha256, image.bytes, image.contentType);
  } catch {
    await deleteImageRow(row.id);
    return { ok: false, problem: "failed" };
  }
  await audit({
    action: "image.upload",
    actorId,
    schoolId: school,
    targetType: "image",
    targetId: row.id,
    meta: { bytes: image.bytes.byteLength, type: image.contentType },
  });
  return {
    ok: true,
    image: { id: row.id, width: image.width, height: image.height, contentType: image.contentType, created: true },
  };
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
