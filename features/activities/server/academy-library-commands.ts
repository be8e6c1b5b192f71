import "server-only";
import { db } from "@/platform/db";
import { readLibraryFiles } from "./library-bundle";
import { loadBundledLibrary } from "./library-bundle-commands";

/**
 * A new academy's library: every bundled file (the admin CLI's create-academy); the number added. Kept out of
 * the app's routes and actions: it reads prisma/content from the file system, which the app's bundle does not.
 */
export async function loadBundledLibraryInto(academyId: string): Promise<number> {
  return (await loadBundledLibrary(db(), await readLibraryFiles(), [academyId])).added;
}
