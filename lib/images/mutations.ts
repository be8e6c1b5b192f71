import "server-only";
import { db } from "@/lib/db";

/** What an image row records of its bytes. */
export interface ImageFacts {
  contentType: string;
  width: number;
  height: number;
  byteSize: number;
  sha256: string;
}

/** The metadata row of a new image of the school (its bytes go through the storage). */
export async function insertImageRow(schoolId: string, createdById: string | null, image: ImageFacts): Promise<{ id: string }> {
  return db().image.create({
    data: { schoolId, createdById, contentType: image.contentType, width: image.width, height: image.height, byteSize: image.byteSize, sha256: image.sha256 },
    select: { id: true },
  });
}

export async function deleteImageRow(id: string): Promise<void> {
  await db().image.deleteMany({ where: { id } });
}

/** The PostgreSQL storage's writes (lib/images/storage.ts): bytes by their SHA-256, stored once. */
export async function putImageBytes(sha256: string, bytes: Buffer): Promise<void> {
  await db().$executeRaw`insert into image_contents (sha256, data) values (${sha256}, ${new Uint8Array(bytes)}) on conflict (sha256) do nothing`;
}

export async function deleteImageBytes(sha256: string): Promise<void> {
  await db().imageContent.deleteMany({ where: { sha256 } });
}
