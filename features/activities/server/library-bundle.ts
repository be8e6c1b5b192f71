import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type ActivityFile, activityFileSchema } from "@/features/activities/shared/file-format";
import { ACTIVITY_FILE_FORMAT, ACTIVITY_FILE_VERSION } from "@/features/activities/shared/file-limits";
import { type LibraryFile, libraryFileSchema } from "@/features/activities/shared/library-content-schema";

export const LIBRARY_DIR = path.resolve(import.meta.dirname, "../../../prisma/content/library");

/** Reads and validates every bundled library file; throws with the file name on a bad one. */
export async function readLibraryFiles(dir = LIBRARY_DIR): Promise<LibraryFile[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  return Promise.all(
    files.map(async (file) => {
      const raw: unknown = JSON.parse(await readFile(path.join(dir, file), "utf8"));
      const parsed = libraryFileSchema.safeParse(raw);
      if (!parsed.success) {
        throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
      }
      if (`${parsed.data.id}.json` !== file) throw new Error(`${file}: id must match the file name`);
      return parsed.data;
    }),
  );
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
