import "server-only";
import { randomUUID } from "node:crypto";
import { db, dbPool } from "@/platform/db";

/** What an image row records of its bytes. */
export interface ImageFacts {
  contentType: string;
  width: number;
  height: number;
  byteSize: number;
  sha256: string;
}

/** The metadata rows of new images of the school, in one statement (their bytes go through the storage); their ids in order. */
export async function insertImageRows(
  schoolId: string,
  createdById: string | null,
  images: ImageFacts[],
): Promise<{ id: string }[]> {
  const data = images.map(({ contentType, width, height, byteSize, sha256 }) => {
    return { schoolId, createdById, contentType, width, height, byteSize, sha256, id: randomUUID() };
  });
  await db().image.createMany({ data });
  return data.map(({ id }) => ({ id }));
}

/** The metadata row of a new image of the school. */
export async function insertImageRow(
  schoolId: string,
  createdById: string | null,
  image: ImageFacts,
): Promise<{ id: string }> {
  const [row] = await insertImageRows(schoolId, createdById, [image]);
  return row!;
}

export async function deleteImageRows(ids: string[]): Promise<void> {
  await db().image.deleteMany({ where: { id: { in: ids } } });
}

export const deleteImageRow = (id: string): Promise<void> => deleteImageRows([id]);

/** What one clean-up did: images marked as placed nowhere, images removed, stored contents removed. */
export interface SweepCount {
  marked: number;
  removed: number;
  contents: number;
}

/**
 * One clean-up of images no content places (features/scenes/server/image-cleanup.ts), in one transaction under an
 * advisory lock, so that with several app instances one sweeps and the others skip (null). The
 * images placed by any scene, scene version or library entry are found in their JSON; those
 * placed again lose their mark; those placed nowhere get one; those marked longer than
 * `graceHours` ago are removed, and then the stored bytes (PostgreSQL storage) no image names.
 */
export async function sweepUnreferencedImages(graceHours: number): Promise<SweepCount | null> {
  return db().$transaction(
    async (tx) => {
      const [lock] = await tx.$queryRaw<
        { got: boolean }[]
      >`select pg_try_advisory_xact_lock(hashtext('manabiya:images:sweep')) as got`;
      if (!lock?.got) return null;
      await tx.$executeRaw`
      create temporary table placed_images on commit drop as
      select distinct v #>> '{}' as id from (
        select jsonb_path_query(content, 'lax $.**.image.id') as v from activity_scenes
        union all select jsonb_path_query(content, 'lax $.**.image.id') from scene_versions
        union all select jsonb_path_query(content, 'lax $.**.image.id') from library_entries) p`;
      await tx.$executeRaw`update images i set unreferenced_since = null
      where i.unreferenced_since is not null and exists (select 1 from placed_images p where p.id = i.id::text)`;
      const marked = await tx.$executeRaw`update images i set unreferenced_since = now()
      where i.unreferenced_since is null and not exists (select 1 from placed_images p where p.id = i.id::text)`;
      const removed = await tx.$executeRaw`delete from images i
      where i.unreferenced_since < now() - make_interval(hours => ${graceHours}::int) and not exists (select 1 from placed_images p where p.id = i.id::text)`;
      const contents =
        await tx.$executeRaw`delete from image_contents c where not exists (select 1 from images i where i.sha256 = c.sha256)`;
      return { marked, removed, contents };
    },
    { timeout: 120_000 },
  );
}

/** The PostgreSQL storage's writes (features/scenes/server/image-storage.ts): bytes by their SHA-256, stored once. */
export async function putImageBytes(sha256: string, bytes: Buffer): Promise<void> {
  // node-postgres sends the bytes as they are; through Prisma a page held the event loop ~20 ms
  await dbPool().query("insert into image_contents (sha256, data) values ($1, $2) on conflict (sha256) do nothing", [
    sha256,
    bytes,
  ]);
}

export async function deleteImageBytes(sha256: string): Promise<void> {
  await db().imageContent.deleteMany({ where: { sha256 } });
}
