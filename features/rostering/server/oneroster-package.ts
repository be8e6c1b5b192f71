/** Where a package's files come from: a zip, loose files from a browser upload, or (command line) a folder. */
import type { ProblemList } from "../shared/oneroster-problems";
import { readZip, ZipError } from "./oneroster-zip";

/** The files of a package by name (no folder part), each readable as byte chunks. */
export interface PackageSource {
  names: string[];
  open(name: string): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** Bytes handed to the CSV reader in slices, so no file is decoded as one string. */
const SLICE = 64 * 1024;
export function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += SLICE) yield bytes.subarray(at, at + SLICE);
}

/** The name a file is looked up by: its last path segment. */
const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** Loose files (e.g. a browser upload): name → bytes. */
export function filesSource(files: Record<string, Uint8Array>): PackageSource {
  const byName = new Map(Object.entries(files).map(([name, bytes]) => [baseName(name.replace(/\\/g, "/")), bytes]));
  return { names: [...byName.keys()], open: (name) => slices(byName.get(name) ?? new Uint8Array()) };
}

/** The largest upload the roster page sends (a zip or its CSV files): a city's 10,000 students are a few MB. */
export const MAX_ROSTER_UPLOAD_BYTES = 64 * 1024 * 1024;
/** The most a package's files may hold when unpacked, counted in bytes actually inflated (docs/security.md). */
export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;

/** A zip with the CSVs at its root; null after adding a problem. Folders, dot files and __MACOSX are ignored (features/rostering/server/oneroster-zip.ts reads it). */
export function zipSource(zip: Uint8Array, problems: ProblemList, maxBytes = MAX_UNZIPPED_BYTES): PackageSource | null {
  const nested: string[] = [];
  let entries: Record<string, Uint8Array>;
  try {
    entries = readZip(
      zip,
      (name) => {
        if (name.endsWith("/") || name.startsWith("__MACOSX/") || baseName(name).startsWith(".")) return false;
        if (name.includes("/")) nested.push(name);
        return !name.includes("/");
      },
      maxBytes,
    );
  } catch (error) {
    if (error instanceof ZipError && error.kind === "tooLarge")
      problems.add("packageTooLarge", "", 0, "", { value: `${Math.round(error.bytes / 1024 / 1024)} MB` });
    else problems.add("zipInvalid", "", 0, "");
    return null;
  }
  const names = Object.keys(entries);
  if (!names.includes("manifest.csv") && nested.some((n) => baseName(n) === "manifest.csv")) {
    const folder = nested.find((n) => baseName(n) === "manifest.csv")!;
    problems.add("notAtRoot", "", 0, "", { value: folder.slice(0, folder.lastIndexOf("/")) });
    return null;
  }
  return filesSource(entries);
}
