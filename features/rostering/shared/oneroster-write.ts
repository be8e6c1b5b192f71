/**
 * writeRosterPackage: a RosterSet → the CSV files of a OneRoster 1.2 Japan Profile set, strict out:
 * the chosen profile's manifest version and exact unquoted headers (features/rostering/shared/oneroster-columns.ts
 * ROSTER_PROFILES), every data field double-quoted, UTF-8 without BOM, CRLF, all 21 manifest rows,
 * kana readings in full-width katakana. Each file is written bulk or delta as the set's manifest
 * marks it (absent: not written). Pure.
 */
import { zipSync } from "fflate";
import { toKatakana } from "@/features/activities/shared/furigana-align";
import { DEFAULT_PROFILE, READ_FILES, ROSTER_PROFILES, type ProfileName, type ReadFile } from "./oneroster-columns";
import { MANIFEST } from "./oneroster-manifest";
import { ROSTER_FILES } from "./oneroster-files";
import type { RosterSet } from "./oneroster-model";

type Cells = Record<string, string | number | boolean | string[] | null | undefined>;

const kana = (s: string | null) => (s === null ? null : toKatakana(s));

const CELLS: { [F in ReadFile]: (row: RosterSet[F][number]) => Cells } = {
  academicSessions: (r) => ({ ...r, parentSourcedId: "NULL" }),
  orgs: (r) => ({ ...r }),
  courses: (r) => ({ ...r, courseCode: "" }),
  classes: (r) => ({ ...r, "metadata.jp.specialNeeds": r.specialNeeds }),
  users: (r) => ({
    ...r,
    "metadata.jp.kanaGivenName": kana(r.kanaGivenName),
    "metadata.jp.kanaFamilyName": kana(r.kanaFamilyName),
    "metadata.jp.kanaMiddleName": kana(r.kanaMiddleName),
    "metadata.jp.homeClass": r.homeClass,
    // the preferred name's reading is the reading when the preferred name is the name (the model keeps no other)
    "metadata.jp.kanaPreferredFamilyName": r.preferredFamilyName === r.familyName ? kana(r.kanaFamilyName) : null,
    "metadata.jp.kanaPreferredGivenName": r.preferredGivenName === r.givenName ? kana(r.kanaGivenName) : null,
    "metadata.jp.kanaPreferredMiddleName": r.preferredMiddleName === r.middleName ? kana(r.kanaMiddleName) : null,
  }),
  roles: (r) => ({ ...r }),
  enrollments: (r) => ({
    ...r,
    "metadata.jp.ShussekiNo": r.shussekiNo,
    "metadata.jp.PublicFlg": r.publicFlg,
    "metadata.jp.shussekiNo": r.shussekiNo,
    "metadata.jp.publicFlg": r.publicFlg,
  }),
};

/** One data field: always quoted, `"` doubled, lists comma-joined, null and empty as "". */
export function quoteField(value: Cells[string]): string {
  const text = value === null || value === undefined ? "" : Array.isArray(value) ? value.join(",") : String(value);
  return `"${text.replace(/"/g, '""')}"`;
}

const CRLF = "\r\n";
const encoder = new TextEncoder();

export interface WriteOptions {
  /** The profile to write (default: the one the set was read in, else 1.2). */
  profile?: ProfileName;
}

function fileText<F extends ReadFile>(file: F, rows: RosterSet[F], profile: ProfileName, delta: boolean): string {
  const cols = ROSTER_PROFILES[profile].columns[file];
  const lines = [cols.map((c) => c.name).join(",")];
  const cellsOf = CELLS[file] as (row: RosterSet[F][number]) => Cells;
  for (const row of rows as RosterSet[F][number][]) {
    if (!delta && row.status === "tobedeleted") continue; // a bulk set is the current state
    // Bulk rows carry neither status nor dateLastModified, delta rows both; columns the product does not keep are "".
    const cells: Cells = delta ? cellsOf(row) : { ...cellsOf(row), status: "", dateLastModified: "" };
    lines.push(cols.map((c) => quoteField(cells[c.name])).join(","));
  }
  return lines.join(CRLF) + CRLF;
}

/** The mode each file is written in: the set's, for the files the product writes; every other file absent. */
const modeOf = (set: RosterSet, file: (typeof ROSTER_FILES)[number]) =>
  (READ_FILES as readonly string[]).includes(file) ? set.manifest.files[file] : "absent";

function manifestText(set: RosterSet, profile: ProfileName): string {
  const rows: [string, string][] = [
    ["manifest.version", "1.0"],
    ["oneroster.version", ROSTER_PROFILES[profile].onerosterVersion],
  ];
  for (const file of ROSTER_FILES) rows.push([`file.${file}`, modeOf(set, file)]);
  if (set.manifest.sourceSystemName) rows.push(["source.systemName", set.manifest.sourceSystemName]);
  if (set.manifest.sourceSystemCode) rows.push(["source.systemCode", set.manifest.sourceSystemCode]);
  return ["propertyName,value", ...rows.map((r) => r.map(quoteField).join(","))].join(CRLF) + CRLF;
}

/** The package's files by name: manifest.csv and each of the seven files not absent (UTF-8, no BOM). */
export function writeRosterPackage(set: RosterSet, options: WriteOptions = {}): Record<string, Uint8Array> {
  const profile = options.profile ?? set.manifest.profile ?? DEFAULT_PROFILE;
  const out: Record<string, Uint8Array> = { [MANIFEST]: encoder.encode(manifestText(set, profile)) };
  for (const file of READ_FILES) {
    const mode = modeOf(set, file);
    if (mode !== "absent") out[`${file}.csv`] = encoder.encode(fileText(file, set[file], profile, mode === "delta"));
  }
  return out;
}

/** The package as one zip, CSVs at its root. `mtime` fixes the entries' time (same set → same bytes). */
export function zipRosterPackage(set: RosterSet, options: WriteOptions & { mtime?: Date } = {}): Uint8Array {
  return zipSync(writeRosterPackage(set, options), { level: 6, mtime: options.mtime ?? new Date() });
}
