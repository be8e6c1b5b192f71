/**
 * readRosterPackage: a OneRoster 1.2 CSV (Japan Profile) package → a typed RosterSet, or the
 * list of problems (each at file, line, column) when anything is wrong. Pure: no database; the
 * caller says which rows already exist through `known` (for delta files).
 */
import { profileOf, READ_FILES, type Column, type ReadFile } from "../shared/oneroster-columns";
import { checkAcross, type Known } from "../shared/oneroster-cross";
import { readRosterFile, type Progress } from "../shared/oneroster-file-read";
import { MANIFEST, readManifest } from "../shared/oneroster-manifest";
import { ROSTER_FILES } from "../shared/oneroster-files";
import type { Problem, RosterSet } from "../shared/oneroster-model";
import { filesSource, zipSource, type PackageSource } from "./oneroster-package";
import { ProblemList } from "../shared/oneroster-problems";

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
    const { folderSource } = await import("./oneroster-folder");
    return folderSource(input.folder);
  }
  if ("names" in input && Array.isArray(input.names) && typeof input.open === "function") return input as PackageSource;
  return filesSource(input as Record<string, Uint8Array>);
}

/** Copies a browser or a file manager names "users (1).csv" / "users-2.csv"; their base name. */
const COPY_SUFFIX = /(?:\s*\(\d+\)|[-_ ]\d+)$/;

/**
 * The sent file that was probably meant as `expected` (same name but for upper/lower case or a copy's
 * number), so the problem names what was actually sent; "none" when no sent file looks like it.
 */
export function sentAs(names: readonly string[], expected: string): string {
  const base = (name: string) => {
    const dot = name.lastIndexOf(".");
    const stem = dot > 0 ? name.slice(0, dot) : name;
    return `${stem.replace(COPY_SUFFIX, "").trim()}${dot > 0 ? name.slice(dot) : ""}`.toLowerCase();
  };
  return names.find((n) => n !== expected && base(n) === expected) ?? "none";
}

export async function readRosterPackage(input: RosterInput, options: ReadOptions = {}): Promise<ReadResult> {
  const problems = new ProblemList(options.maxProblems);
  const source = await sourceOf(input, problems, options.maxUnzippedBytes);
  if (!source) return { set: null, problems: problems.items };
  if (!source.names.includes(MANIFEST)) {
    problems.add("manifestMissing", MANIFEST, 0, "", { sent: sentAs(source.names, MANIFEST) });
    return { set: null, problems: problems.items };
  }
  const manifest = await readManifest(source.open(MANIFEST), problems);
  if (!manifest) return { set: null, problems: problems.items };

  for (const file of ROSTER_FILES) {
    const present = source.names.includes(`${file}.csv`);
    const mode = manifest.files[file];
    if (mode === "absent" && present) problems.add("fileNotAbsent", `${file}.csv`, 0, "");
    if (mode !== "absent" && !present)
      problems.add("fileMissing", `${file}.csv`, 0, "", { expected: mode, sent: sentAs(source.names, `${file}.csv`) });
  }
  if (problems.count > 0) return { set: null, problems: problems.items };

  const set: RosterSet = {
    manifest,
    academicSessions: [],
    orgs: [],
    courses: [],
    classes: [],
    users: [],
    roles: [],
    enrollments: [],
  };
  let whole = true;
  let shussekiColumn: string | undefined;
  const headers: Partial<Record<ReadFile, Column[]>> = {};
  for (const file of READ_FILES) {
    const mode = manifest.files[file];
    if (mode === "absent") continue;
    const read = await readRosterFile(file, source.open(`${file}.csv`), mode, problems, options.onProgress);
    if (!read) whole = false;
    else (set[file] as RosterSet[typeof file]) = read.rows;
    if (read && (file === "users" || file === "enrollments")) headers[file] = read.columns;
    if (read && file === "enrollments") shussekiColumn = read.columns.find((c) => c.kind === "int")?.name;
  }
  manifest.profile = profileOf(manifest.onerosterVersion, headers);
  // References into a file that could not be read would all look missing: check them once every file reads.
  if (whole) checkAcross(set, manifest.files, problems, options.known, shussekiColumn);
  if (shussekiColumn && shussekiColumn !== "metadata.jp.ShussekiNo") set.shussekiColumn = shussekiColumn;
  return problems.count > 0 ? { set: null, problems: problems.items } : { set, problems: [] };
}
