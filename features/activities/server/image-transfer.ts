import "server-only";
import type { ActivityFile } from "@/features/activities/shared/file-format";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { academyImages, schoolImageByHash, schoolImages } from "../../scenes/server/image-queries";
import type { ImageProblem, ImageType } from "../../scenes/shared/image-limits";
import { deleteImageRow, insertImageRow } from "../../scenes/server/image-commands";
import { imageIdsOf, rewriteImages } from "../../scenes/shared/image-refs";
import { imageStorage } from "../../scenes/server/image-storage";
import { sniffImageType } from "../../scenes/server/image-process";
import { type StoredImage, storeImage } from "../../scenes/server/image-store";

/**
 * Images crossing schools with an activity (features/scenes/README.md "Images"): embedded in an
 * exported file, stored again (checked and re-encoded) by an import, copied for a library
 * copy. The receiving school always gets its own rows; content is rewritten to their ids.
 */
type Placed = ReadonlyMap<string, { id: string; width: number; height: number }>;

/**
 * The school's images that `contents` place, as a file carries them (type and base64 bytes),
 * or null as soon as they pass `budget` characters: a file an import would refuse is never
 * built (nor held in memory).
 */
export async function embedImages(
  school: AuthorizedSchoolId,
  contents: unknown[],
  budget: number,
): Promise<NonNullable<ActivityFile["images"]> | null> {
  const found = await schoolImages(school, imageIdsOf(contents));
  const out: NonNullable<ActivityFile["images"]> = {};
  let size = 0;
  for (const image of found) {
    size += Math.ceil(image.byteSize / 3) * 4;
    if (size > budget) return null;
    const bytes = await imageStorage().get(image.sha256);
    if (bytes) out[image.id] = { type: image.contentType as ImageType, data: bytes.toString("base64") };
  }
  return out;
}

/**
 * Stores a file's images in the school, each decoded and checked by sharp as an upload is:
 * the new ids by the file's ids, or why one was refused (nothing of the file is kept).
 */
export async function importFileImages(
  school: AuthorizedSchoolId,
  actorId: string,
  file: ActivityFile,
): Promise<{ ok: true; placed: Placed } | { ok: false; problem: ImageProblem }> {
  const placed = new Set(imageIdsOf(file.scenes));
  const stored: [string, StoredImage][] = [];
  for (const [id, image] of Object.entries(file.images ?? {})) {
    if (!placed.has(id)) continue;
    const bytes = Buffer.from(image.data, "base64");
    // the declared type must be the bytes' own (what is stored may be re-encoded to WebP)
    const result =
      sniffImageType(bytes) === image.type
        ? await storeImage(school, actorId, bytes)
        : ({ ok: false, problem: "type" } as const);
    if (!result.ok) {
      // only the images this import made go (one the school already had stays)
      await Promise.all(stored.filter(([, s]) => s.created).map(([, s]) => deleteImageRow(s.id)));
      return result;
    }
    stored.push([id, result.image]);
  }
  return { ok: true, placed: new Map(stored) };
}

/**
 * Copies the images that `contents` place from the academy's schools into `school` (a library
 * copy): new rows of the school naming the same stored bytes, never a second copy of them (an
 * image already the school's, or one of the school's with the same bytes, is kept). An image
 * that is gone (its school was deleted) is left out of the content.
 */
export async function copyAcademyImages(
  school: AuthorizedSchoolId,
  actorId: string,
  academyId: string,
  contents: unknown[],
): Promise<Placed> {
  const out = new Map<string, { id: string; width: number; height: number }>();
  for (const image of await academyImages(academyId, imageIdsOf(contents))) {
    if (image.schoolId === school) {
      out.set(image.id, image);
      continue;
    }
    const row = (await schoolImageByHash(school, image.sha256)) ?? (await insertImageRow(school, actorId, image));
    out.set(image.id, { id: row.id, width: image.width, height: image.height });
  }
  return out;
}

/** A file's scenes with their images placed by `to` (see rewriteImages). */
export const withPlacedImages = <S extends { content: unknown }>(scenes: S[], to: Placed): S[] =>
  scenes.map((s) => ({ ...s, content: rewriteImages(s.content, to) }));
