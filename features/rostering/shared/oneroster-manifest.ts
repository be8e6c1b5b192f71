/** manifest.csv: header propertyName,value; manifest.version 1.0; oneroster.version; all 21 file.* rows. */
import { readCsvRecords, CsvSyntaxError, EncodingError, type ByteChunks } from "./oneroster-csv-stream";
import { ROSTER_PROFILES } from "./oneroster-columns";
import { ROSTER_FILES, type RosterFile } from "./oneroster-files";
import type { FileMode, Manifest } from "./oneroster-model";
import type { ProblemList } from "./oneroster-problems";

export const MANIFEST = "manifest.csv";
/** The versions read: one per profile (Japan Profile rev.2 / eポータル v3: 1.2; eポータル v4: 1.2.1; K-12 Profile: 1.2_JP). */
export const ONEROSTER_VERSIONS: readonly string[] = Object.values(ROSTER_PROFILES).map((p) => p.onerosterVersion);
const MODES: readonly string[] = ["bulk", "delta", "absent"];

/** The manifest, or null after adding problems. */
export async function readManifest(chunks: ByteChunks, problems: ProblemList): Promise<Manifest | null> {
  const before = problems.count;
  const seen = new Map<string, { value: string; line: number }>();
  let header = true;
  try {
    for await (const { line, fields } of readCsvRecords(chunks)) {
      if (header) {
        header = false;
        if (fields[0] !== "propertyName" || fields[1] !== "value") {
          problems.add("manifestHeader", MANIFEST, 1, fields[0] ?? "");
          return null;
        }
        continue;
      }
      const name = (fields[0] ?? "").trim();
      const value = (fields[1] ?? "").trim();
      if (seen.has(name)) problems.add("manifestUnknownRow", MANIFEST, line, "propertyName", { value: name });
      else seen.set(name, { value, line });
    }
  } catch (error) {
    if (error instanceof EncodingError) problems.add("encodingNotUtf8", MANIFEST, 0, "", { encoding: error.encoding });
    else if (error instanceof CsvSyntaxError) problems.add("csvSyntax", MANIFEST, error.line, "");
    else problems.add("fileUnreadable", MANIFEST, 0, "");
    return null;
  }
  if (header) {
    problems.add("fileEmpty", MANIFEST, 0, "");
    return null;
  }
  const take = (name: string) => {
    const row = seen.get(name);
    seen.delete(name);
    if (!row) problems.add("manifestRowMissing", MANIFEST, 0, name);
    return row;
  };
  const manifestVersion = take("manifest.version");
  if (manifestVersion && manifestVersion.value !== "1.0") {
    problems.add("manifestVersion", MANIFEST, manifestVersion.line, "value", { value: manifestVersion.value });
  }
  const version = take("oneroster.version");
  if (version && !ONEROSTER_VERSIONS.includes(version.value)) {
    problems.add("onerosterVersion", MANIFEST, version.line, "value", { value: version.value });
  }
  const files = {} as Record<RosterFile, FileMode>;
  for (const file of ROSTER_FILES) {
    const row = take(`file.${file}`);
    files[file] = "absent";
    if (!row) continue;
    if (MODES.includes(row.value)) files[file] = row.value as FileMode;
    else problems.add("manifestMode", MANIFEST, row.line, `file.${file}`, { value: row.value });
  }
  const systemName = seen.get("source.systemName");
  const systemCode = seen.get("source.systemCode");
  seen.delete("source.systemName");
  seen.delete("source.systemCode");
  for (const [name, row] of seen)
    problems.add("manifestUnknownRow", MANIFEST, row.line, "propertyName", { value: name });
  if (problems.count > before) return null;
  return {
    onerosterVersion: version!.value,
    files,
    sourceSystemName: systemName?.value || null,
    sourceSystemCode: systemCode?.value || null,
  };
}
