import "server-only";
import { db } from "@/lib/db";
import type { ProcessedImage } from "./process";

/** The metadata row of a new image of the school (its bytes go through the storage). */
export async function insertImageRow(schoolId: string, createdById: string | null, image: ProcessedImage): Promise<{ id: string }> {
  return db().image.create({
    data: { schoolId, createdById, contentType: image.contentType, width: image.width, height: image.height, byteSize: image.bytes.byteLength, sha256: image.sha256 },
    select: { id: true },
  });
}

export async function deleteImageRow(id: string): Promise<void> {
  await db().image.deleteMany({ where: { id } });
}

/** The PostgreSQL storage's writes (lib/images/storage.ts). */
export async function putImageBytes(id: string, bytes: Buffer): Promise<void> {
  await db().imageBlob.upsert({ where: { id }, create: { id, data: new Uint8Array(bytes) }, update: {}, select: { id: true } });
}

export async function deleteImageBytes(id: string): Promise<void> {
  await db().imageBlob.deleteMany({ where: { id } });
}
