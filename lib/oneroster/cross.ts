/** Checks across rows and files: duplicate ids, references, homerooms, 出席番号, roles. Pure. */
import { READ_FILES, type ReadFile } from "./columns";
import type { RosterFile, RosterSet, RowMeta } from "./model";
import type { ProblemList } from "./problems";

/** Whether a row already exists where the set will be applied (delta files may point at it). */
export type Known = (kind: RosterFile, sourcedId: string) => boolean;

type Sets = Pick<RosterSet, ReadFile>;

function duplicates(file: ReadFile, rows: RowMeta[], problems: ProblemList): void {
  const first = new Map<string, number>();
  for (const row of rows) {
    const seen = first.get(row.sourcedId);
    if (seen === undefined) first.set(row.sourcedId, row.line);
    else problems.add("duplicateId", `${file}.csv`, row.line, "sourcedId", { value: row.sourcedId, other: seen });
  }
}

export function checkAcross(set: Sets, files: RosterSet["manifest"]["files"], problems: ProblemList, known?: Known): void {
  const ids = {} as Record<ReadFile, Set<string>>;
  for (const file of READ_FILES) {
    duplicates(file, set[file], problems);
    ids[file] = new Set(set[file].map((r) => r.sourcedId));
  }
  // A reference resolves inside the set, or (when the target file is not sent in bulk) to a known row.
  const has = (target: ReadFile, id: string) =>
    ids[target].has(id) || (files[target] !== "bulk" && known !== undefined && known(target, id));
  // A row being deleted (delta tobedeleted) may point at rows already gone.
  const live = <T extends RowMeta>(rows: T[]) => rows.filter((r) => r.status !== "tobedeleted");
  const ref = (file: ReadFile, line: number, column: string, target: ReadFile, id: string | null) => {
    if (id !== null && id !== "" && !has(target, id)) {
      problems.add("missingReference", `${file}.csv`, line, column, { value: id, expected: `${target}.csv` });
    }
  };
  for (const o of live(set.orgs)) ref("orgs", o.line, "parentSourcedId", "orgs", o.parentSourcedId);
  for (const c of live(set.courses)) {
    ref("courses", c.line, "schoolYearSourcedId", "academicSessions", c.schoolYearSourcedId);
    ref("courses", c.line, "orgSourcedId", "orgs", c.orgSourcedId);
  }
  for (const c of live(set.classes)) {
    ref("classes", c.line, "courseSourcedId", "courses", c.courseSourcedId);
    ref("classes", c.line, "schoolSourcedId", "orgs", c.schoolSourcedId);
    for (const t of c.termSourcedIds) ref("classes", c.line, "termSourcedIds", "academicSessions", t);
  }
  for (const u of live(set.users)) {
    ref("users", u.line, "primaryOrgSourcedId", "orgs", u.primaryOrgSourcedId);
    ref("users", u.line, "metadata.jp.homeClass", "classes", u.homeClass);
  }
  for (const r of live(set.roles)) {
    ref("roles", r.line, "userSourcedId", "users", r.userSourcedId);
    ref("roles", r.line, "orgSourcedId", "orgs", r.orgSourcedId);
  }
  for (const e of live(set.enrollments)) {
    ref("enrollments", e.line, "classSourcedId", "classes", e.classSourcedId);
    ref("enrollments", e.line, "schoolSourcedId", "orgs", e.schoolSourcedId);
    ref("enrollments", e.line, "userSourcedId", "users", e.userSourcedId);
  }
  homerooms(set, problems);
  if (files.roles === "bulk") primaries(set, problems);
}

/** A student in one homeroom only; within a homeroom, each 出席番号 once. */
function homerooms(set: Sets, problems: ProblemList): void {
  const homeroom = new Set(set.classes.filter((c) => c.classType === "homeroom").map((c) => c.sourcedId));
  const studentIn = new Map<string, { classId: string; line: number }>();
  const numberAt = new Map<string, number>();
  for (const e of set.enrollments) {
    if (e.role !== "student" || e.status === "tobedeleted" || !homeroom.has(e.classSourcedId)) continue;
    const before = studentIn.get(e.userSourcedId);
    if (before && before.classId !== e.classSourcedId) {
      problems.add("twoHomerooms", "enrollments.csv", e.line, "classSourcedId", { value: e.userSourcedId, other: before.line });
    } else if (!before) {
      studentIn.set(e.userSourcedId, { classId: e.classSourcedId, line: e.line });
    }
    if (e.shussekiNo === null) continue;
    const key = `${e.classSourcedId} ${e.shussekiNo}`;
    const other = numberAt.get(key);
    if (other === undefined) numberAt.set(key, e.line);
    else problems.add("shussekiNoCollision", "enrollments.csv", e.line, "metadata.jp.ShussekiNo", { value: e.shussekiNo, other });
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
