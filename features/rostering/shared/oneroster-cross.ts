/** Checks across rows and files: duplicate ids, references, homerooms, 出席番号, roles. Pure. */
import { FILE_COLUMNS, READ_FILES, type ReadFile } from "./oneroster-columns";
import type { RosterFile } from "./oneroster-files";
import type { RosterSet, RowMeta } from "./oneroster-model";
import type { ProblemList } from "./oneroster-problems";
import { checkProfile } from "./oneroster-profile";

/** Whether a row already exists where the set will be applied (delta files may point at it). */
export type Known = (kind: RosterFile, sourcedId: string) => boolean;

type Sets = Pick<RosterSet, ReadFile>;

/** The row property a column is read into, where the names differ. */
const ROW_PROPERTY: Record<string, string> = { "metadata.jp.homeClass": "homeClass" };

function duplicates(file: ReadFile, rows: RowMeta[], problems: ProblemList): void {
  const first = new Map<string, number>();
  for (const row of rows) {
    const seen = first.get(row.sourcedId);
    if (seen === undefined) first.set(row.sourcedId, row.line);
    else problems.add("duplicateId", `${file}.csv`, row.line, "sourcedId", { value: row.sourcedId, other: seen });
  }
}

export function checkAcross(
  set: Sets,
  files: RosterSet["manifest"]["files"],
  problems: ProblemList,
  known?: Known,
  shussekiColumn = "metadata.jp.ShussekiNo",
): void {
  const ids = {} as Record<ReadFile, Set<string>>;
  for (const file of READ_FILES) {
    duplicates(file, set[file], problems);
    ids[file] = new Set(set[file].map((r) => r.sourcedId));
  }
  // A reference resolves inside the set, or (when the target file is not sent in bulk) to a known row.
  const has = (target: ReadFile, id: string) =>
    ids[target].has(id) || (files[target] !== "bulk" && known !== undefined && known(target, id));
  // Every ref/refs column of features/rostering/shared/oneroster-columns.ts; rows being deleted (delta tobedeleted) may point at rows already gone.
  for (const file of READ_FILES) {
    const refs = FILE_COLUMNS[file][0].filter((c) => c.target !== undefined);
    for (const row of set[file] as unknown as (RowMeta & Record<string, unknown>)[]) {
      if (row.status === "tobedeleted") continue;
      for (const col of refs) {
        const value = row[ROW_PROPERTY[col.name] ?? col.name];
        for (const id of Array.isArray(value) ? value : [value]) {
          if (typeof id === "string" && id !== "" && !has(col.target as ReadFile, id)) {
            problems.add("missingReference", `${file}.csv`, row.line, col.name, {
              value: id,
              expected: `${col.target}.csv`,
            });
          }
        }
      }
    }
  }
  homerooms(set, problems, shussekiColumn);
  if (files.roles === "bulk") primaries(set, problems);
  checkProfile(set, problems);
}

/** A student in one homeroom only; within a homeroom, each 出席番号 once. */
function homerooms(set: Sets, problems: ProblemList, shussekiColumn: string): void {
  const homeroom = new Set(set.classes.filter((c) => c.classType === "homeroom").map((c) => c.sourcedId));
  const studentIn = new Map<string, { classId: string; line: number }>();
  const numberAt = new Map<string, number>();
  for (const e of set.enrollments) {
    if (e.role !== "student" || e.status === "tobedeleted" || !homeroom.has(e.classSourcedId)) continue;
    const before = studentIn.get(e.userSourcedId);
    if (before && before.classId !== e.classSourcedId) {
      problems.add("twoHomerooms", "enrollments.csv", e.line, "classSourcedId", {
        value: e.userSourcedId,
        other: before.line,
      });
    } else if (!before) {
      studentIn.set(e.userSourcedId, { classId: e.classSourcedId, line: e.line });
    }
    if (e.shussekiNo === null) continue;
    const key = `${e.classSourcedId} ${e.shussekiNo}`;
    const other = numberAt.get(key);
    if (other === undefined) numberAt.set(key, e.line);
    else problems.add("shussekiNoCollision", "enrollments.csv", e.line, shussekiColumn, { value: e.shussekiNo, other });
  }
}

/** Every user with a secondary role also has a primary one (in a bulk roles file). */
function primaries(set: Sets, problems: ProblemList): void {
  const withPrimary = new Set(set.roles.filter((r) => r.roleType === "primary").map((r) => r.userSourcedId));
  for (const r of set.roles) {
    if (r.roleType === "secondary" && !withPrimary.has(r.userSourcedId)) {
      problems.add("secondaryWithoutPrimary", "roles.csv", r.line, "roleType", { value: r.userSourcedId });
    }
  }
}
