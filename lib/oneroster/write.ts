/**
 * writeRosterPackage: a RosterSet → the CSV files of a OneRoster 1.2 Japan Profile bulk set, strict
 * out: the row-1 profile (oneroster.version 1.2, users 27 columns, metadata.jp.ShussekiNo /
 * PublicFlg), exact unquoted headers, every data field double-quoted, UTF-8 without BOM, CRLF,
 * all 21 manifest rows, kana readings in full-width katakana. Pure.
 */
import { zipSync } from "fflate";
import { toKatakana } from "@/lib/furigana/align";
import { FILE_COLUMNS, READ_FILES, type ReadFile } from "./columns";
import { MANIFEST } from "./manifest";
import { ROSTER_FILES, type RosterSet } from "./model";

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
  }),
  roles: (r) => ({ ...r }),
  enrollments: (r) => ({ ...r, "metadata.jp.ShussekiNo": r.shussekiNo, "metadata.jp.PublicFlg": r.publicFlg }),
};

/** One data field: always quoted, `"` doubled, lists comma-joined, null and empty as "". */
export function quoteField(value: Cells[string]): string {
  const text = value === null || value === undefined ? "" : Array.isArray(value) ? value.join(",") : String(value);
  return `"${text.replace(/"/g, '""')}"`;
}

const CRLF = "\r\n";
const encoder = new TextEncoder();

function fileText<F extends ReadFile>(file: F, rows: RosterSet[F]): string {
  const cols = FILE_COLUMNS[file][0];
  const lines = [cols.map((c) => c.name).join(",")];
  const cellsOf = CELLS[file] as (row: RosterSet[F][number]) => Cells;
  for (const row of rows as RosterSet[F][number][]) {
    if (row.status === "tobedeleted") continue; // a bulk set is the current state
    // Bulk rows carry neither status nor dateLastModified; columns the product does not keep are "".
    const cells: Cells = { ...cellsOf(row), status: "", dateLastModified: "" };
    lines.push(cols.map((c) => quoteField(cells[c.name])).join(","));
  }
  return lines.join(CRLF) + CRLF;
}

function manifestText(set: RosterSet): string {
  const rows: [string, string][] = [["manifest.version", "1.0"], ["oneroster.version", "1.2"]];
  for (const file of ROSTER_FILES) rows.push([`file.${file}`, (READ_FILES as readonly string[]).includes(file) ? "bulk" : "absent"]);
  if (set.manifest.sourceSystemName) rows.push(["source.systemName", set.manifest.sourceSystemName]);
  if (set.manifest.sourceSystemCode) rows.push(["source.systemCode", set.manifest.sourceSystemCode]);
  return ["propertyName,value", ...rows.map((r) => r.map(quoteField).join(","))].join(CRLF) + CRLF;
}

/** The package's files by name: manifest.csv and the seven bulk files (UTF-8, no BOM). */
export function writeRosterPackage(set: RosterSet): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = { [MANIFEST]: encoder.encode(manifestText(set)) };
  for (const file of READ_FILES) out[`${file}.csv`] = encoder.encode(fileText(file, set[file]));
  return out;
}

/** The package as one zip, CSVs at its root. `mtime` fixes the entries' time (same set → same bytes). */
export function zipRosterPackage(set: RosterSet, options: { mtime?: Date } = {}): Uint8Array {
  return zipSync(writeRosterPackage(set), { level: 6, mtime: options.mtime ?? new Date() });
}
