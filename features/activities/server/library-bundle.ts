import path from "node:path";
import { type ActivityFile, activityFileSchema } from "@/features/activities/shared/file-format";
import { ACTIVITY_FILE_FORMAT, ACTIVITY_FILE_VERSION } from "@/features/activities/shared/file-limits";
import { type LibraryFile, libraryFileSchema } from "@/features/activities/shared/library-content-schema";
import { readContentFiles } from "./template-load";

export const LIBRARY_DIR = path.resolve(import.meta.dirname, "../../../prisma/content/library");

/** Reads and validates every bundled library file; throws with the file name on a bad one. */
export function readLibraryFiles(dir = LIBRARY_DIR): Promise<LibraryFile[]> {
  return readContentFiles(dir, libraryFileSchema);
}

/** The activity file a library entry holds for a bundled file (what a school's publish stores, checked the same way). */
export function bundledActivityFile(file: LibraryFile): ActivityFile {
  return activityFileSchema.parse({
    format: ACTIVITY_FILE_FORMAT,
    version: ACTIVITY_FILE_VERSION,
    title: file.title,
    actorType: file.actorType,
    scenes: file.scenes,
    feedback: file.feedback,
  });
}
