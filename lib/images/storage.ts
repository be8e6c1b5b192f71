import "server-only";
import { deleteImageBytes, putImageBytes } from "./mutations";
import { getImageBytes } from "./data";

/**
 * Where an image's bytes live (docs/architecture.md "Images"). The metadata (school, type,
 * size, hash) is always a row of `images` in PostgreSQL, which the access check reads; the
 * bytes go through this interface, keyed by the image id. Today the bytes are in PostgreSQL
 * (`image_blobs`); an S3-compatible store would implement the same three calls (PutObject,
 * GetObject, DeleteObject on key = id) and be chosen here from the environment.
 */
export interface ImageStorage {
  put(id: string, bytes: Buffer, contentType: string): Promise<void>;
  get(id: string): Promise<Buffer | null>;
  delete(id: string): Promise<void>;
}

export const postgresImageStorage: ImageStorage = {
  put: (id, bytes) => putImageBytes(id, bytes),
  get: getImageBytes,
  delete: deleteImageBytes,
};

/** The storage in use. */
export function imageStorage(): ImageStorage {
  return postgresImageStorage;
}
