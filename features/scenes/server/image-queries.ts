import "server-only";
import { db } from "@/platform/db";
import type { ScopeActor } from "@/platform/auth/scope";

/** What the image route needs before it reads any bytes (access, type, ETag). */
export interface ImageMeta {
  id: string;
  contentType: string;
  sha256: string;
  byteSize: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An image the actor may see: one of their school's (students and teachers) or of a school
 * of their academy (managers). Anything else, an id that exists elsewhere included, is null,
 * so the route answers 404 alike and never confirms an id.
 */
export async function imageForViewer(actor: ScopeActor, id: string): Promise<ImageMeta | null> {
  if (!UUID.test(id)) return null;
  const select = { id: true, contentType: true, sha256: true, byteSize: true } as const;
  if (actor.role === "manager") {
    if (!actor.academyId) return null;
    const schools = await db().school.findMany({ where: { academyId: actor.academyId }, select: { id: true } });
    return db().image.findFirst({ where: { id, schoolId: { in: schools.map((s) => s.id) } }, select });
  }
  if (!actor.schoolId) return null;
  return db().image.findFirst({ where: { id, schoolId: actor.schoolId }, select });
}

/** The school's images among `ids` (the others do not exist or are another school's). */
export async function schoolImages(
  schoolId: string,
  ids: string[],
): Promise<{ id: string; width: number; height: number; contentType: string; byteSize: number; sha256: string }[]> {
  const valid = ids.filter((id) => UUID.test(id));
  if (valid.length === 0) return [];
  return db().image.findMany({
    where: { id: { in: valid }, schoolId },
    select: { id: true, width: true, height: true, contentType: true, byteSize: true, sha256: true },
  });
}

/** Images of the schools of one academy among `ids`, with what a copy needs (the academy library's copies). */
export async function academyImages(academyId: string, ids: string[]) {
  const valid = ids.filter((id) => UUID.test(id));
  if (valid.length === 0) return [];
  const schools = await db().school.findMany({ where: { academyId }, select: { id: true } });
  return db().image.findMany({
    where: { id: { in: valid }, schoolId: { in: schools.map((s) => s.id) } },
    select: { id: true, schoolId: true, contentType: true, width: true, height: true, byteSize: true, sha256: true },
  });
}

/** The bytes a school's images take (its quota, features/scenes/server/image-store.ts). */
export async function schoolImageBytes(schoolId: string): Promise<number> {
  const sum = await db().image.aggregate({ where: { schoolId }, _sum: { byteSize: true } });
  return sum._sum.byteSize ?? 0;
}

type SameBytes = { id: string; width: number; height: number; contentType: string };

/** The school's images with these bytes (by their SHA-256): the first made of each, by its hash. */
export async function schoolImagesByHash(schoolId: string, hashes: string[]): Promise<Map<string, SameBytes>> {
  const rows = await db().image.findMany({
    where: { schoolId, sha256: { in: hashes } },
    select: { id: true, width: true, height: true, contentType: true, sha256: true },
    orderBy: { createdAt: "asc" },
  });
  const found = new Map<string, SameBytes>();
  for (const { sha256, ...image } of rows) if (!found.has(sha256)) found.set(sha256, image);
  return found;
}

/** The school's image with these bytes (by their SHA-256), if it has one. */
export async function schoolImageByHash(schoolId: string, sha256: string): Promise<SameBytes | null> {
  return (await schoolImagesByHash(schoolId, [sha256])).get(sha256) ?? null;
}

/** Stored bytes by their SHA-256 (the PostgreSQL storage, features/scenes/server/image-storage.ts). */
export async function getImageBytes(sha256: string): Promise<Buffer | null> {
  const row = await db().imageContent.findUnique({ where: { sha256 }, select: { data: true } });
  return row ? Buffer.from(row.data) : null;
}
