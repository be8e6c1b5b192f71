/**
 * readRosterPackage: a OneRoster 1.2 CSV (Japan Profile) package → a typed RosterSet, or the
 * list of problems (each at file, line, column) when anything is wrong. Pure: no database; the
 * caller says which rows already exist through `known` (for delta files).
 */
import { READ_FILES } from "./columns";
import { checkAcross, type Known } from "./cross";
import { readRosterFile, type Progress } from "./file-read";
import { MANIFEST, readManifest } from "./manifest";
import { ROSTER_FILES, type Problem, type RosterSet } from "./model";
import { filesSource, zipSource, type PackageSource } from "./package";
import { ProblemList } from "./problems";

/** A zip's bytes, loose files by name, a folder (command line), or a ready source. */
export type RosterInput = Uint8Array | Record<string, Uint8Array> | { folder: string } | PackageSource;

export interface ReadOptions {
  /** Called as rows are read: the file and its rows so far. */
  onProgress?: Progress;
  known?: Known;
  /** Problems kept before the list is cut (default 1000). */
  maxProblems?: number;
  /** A zip whose files hold more is refused (declared sizes before inflating, then the bytes inflated; default MAX_UNZIPPED_BYTES, 256 MiB). */
  maxUnzippedBytes?: number;
}

export interface ReadResult {
  /** null when there is any problem: nothing may be applied. */
  set: RosterSet | null;
  problems: Problem[];
}

async function sourceOf(input: RosterInput, problems: ProblemList, maxBytes?: number): Promise<PackageSource | null> {
  if (input instanceof Uint8Array) return zipSource(input, problems, maxBytes);
  if ("folder" in input && typeof input.folder === "string") {
    const { folderSource } = await import("./folder");
    return folderSource(input.folder);
  }
  if ("names" in input && Array.isArray(input.names) && typeof input.open === "function") return input as PackageSource;
  return filesSource(input as Record<string, Uint8Array>);
}

export async function readRosterPackage(input: RosterInput, options: ReadOptions = {}): Promise<ReadResult> {
  const problems = new ProblemList(options.maxProblems);
  const source = await sourceOf(input, problems, options.maxUnzippedBytes);
  if (!source) return { set: null, problems: problems.items };
  if (!source.names.includes(MANIFEST)) {
    problems.add("manifestMissing", MANIFEST, 0, "");
    return { set: null, problems: problems.items };
  }
  const manifest = await readManifest(source.open(MANIFEST), problems);
  if (!manifest) return { set: null, problems: problems.items };

  for (const file of ROSTER_FILES) {
    const present = source.names.includes(`${file}.csv`);
    const mode = manifest.files[file];
    if (mode === "absent" && present) problems.add("fileNotAbsent", `${file}.csv`, 0, "");
    if (mode !== "absent" && !present) problems.add("fileMissing", `${file}.csv`, 0, "", { expected: mode });
  }
  if (problems.count > 0) return { set: null, problems: problems.items };

  const set: RosterSet = {
    manifest, academicSessions: [], orgs: [], courses: [], classes: [], users: [], roles: [], enrollments: [],
  };
  let whole = true;
  let shussekiColumn: string | undefined;
  for (const file of READ_FILES) {
    const mode = manifest.files[file];
    if (mode === "absent") continue;
    const read = await readRosterFile(file, source.open(`${file}.csv`), mode, problems, options.onProgress);
    if (!read) whole = false;
    else (set[file] as RosterSet[typeof file]) = read.rows;
    if (read && file === "enrollments") shussekiColumn = read.columns.find((c) => c.kind === "int")?.name;
  }
  // References into a file that could not be read would all look missing: check them once every file reads.
  if (whole) checkAcross(set, manifest.files, problems, options.known, shussekiColumn);
  return problems.count > 0 ? { set: null, problems: problems.items } : { set, problems: [] };
}
