import "server-only";
import { deleteImageBytes, putImageBytes } from "./image-commands";
import { getImageBytes } from "./image-queries";

/**
 * Where images' bytes live (features/scenes/README.md "Images"). The metadata (school, type,
 * size, hash) is always a row of `images` in PostgreSQL, which the access check reads; the
 * bytes go through this interface, keyed by their SHA-256 (the row's `sha256`), so the same
 * bytes are stored once whichever schools' rows name them. Today the bytes are in PostgreSQL
 * (`image_contents`); an S3-compatible store would implement the same three calls (PutObject,
 * GetObject, DeleteObject on key = sha256) and be chosen here from the environment.
 */
export interface ImageStorage {
  /** Stores the bytes under their hash; bytes already stored are left as they are. */
  put(sha256: string, bytes: Buffer, contentType: string): Promise<void>;
  get(sha256: string): Promise<Buffer | null>;
  delete(sha256: string): Promise<void>;
}

export const postgresImageStorage: ImageStorage = {
  put: (sha256, bytes) => putImageBytes(sha256, bytes),
  get: getImageBytes,
  delete: deleteImageBytes,
};

/** The storage in use. */
export function imageStorage(): ImageStorage {
  return postgresImageStorage;
}
