/** A package as a folder on disk (the command line). Node only: kept out of the rest of features/rostering. */
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { PackageSource } from "./oneroster-package";

export async function folderSource(dir: string): Promise<PackageSource> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isFile() && !e.name.startsWith(".")).map((e) => e.name);
  return {
    names,
    open: (name) => createReadStream(path.join(dir, name), { highWaterMark: 64 * 1024 }) as AsyncIterable<Uint8Array>,
  };
}
