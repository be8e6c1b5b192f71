/**
 * The import plan, computed from a parsed set and what the database holds (features/rostering/server/queries.ts):
 * per school, who and what is created, changed, moved and disabled, and every database-level
 * problem with file, line and column. Pure: the same inputs give the same plan.
 */
import type { Problem, RosterClass, RosterSet, RosterUser } from "@/features/rostering/shared/oneroster-model";
import { type DbUser, type RosterState, seatOf } from "./queries";
import { importProblem, type RosterImportCode } from "../shared/problems";
import { classNameOf, displayName, gradeOfCode, readingOf } from "./rules";
import {
  type ClassTarget,
  type Counts,
  PREVIEW_ROWS,
  type PreviewList,
  type PreviewRow,
  type RosterPlan,
  type SchoolWork,
  type UserTarget,
} from "../shared/types";

function classTarget(c: RosterClass, teacher: string | null): ClassTarget {
  const gradeCode = c.grades[0] ?? null;
  return {
    sourcedId: c.sourcedId,
    title: c.title,
    gradeCode,
    grade: gradeOfCode(gradeCode),
    className: classNameOf(c.title, c.classCode),
    classCode: c.classCode,
    courseSourcedId: c.courseSourcedId || null,
    termSourcedId: c.termSourcedIds[0] ?? null,
    teacherSourcedId: teacher,
  };
}

const problem = (
  file: string,
  line: number,
  column: string,
  code: RosterImportCode,
  extra?: Record<string, string | number>,
) => importProblem(code, file, line, column, extra);

/** Name parts the product never stored (people added on its own screens) match what an export made of the name. */
const sameParts = (u: DbUser, t: UserTarget) =>
  (u.familyName === null && u.givenName === null) ||
  (u.familyName === t.familyName &&
    u.givenName === t.givenName &&
    u.kanaFamilyName === t.kanaFamilyName &&
    u.kanaGivenName === t.kanaGivenName);

const sameUser = (u: DbUser, t: UserTarget) =>
  !u.disabled &&
  u.email === t.email &&
  u.name === t.name &&
  u.nameKana === t.nameKana &&
  sameParts(u, t) &&
  (t.userMasterIdentifier === null || u.userMasterIdentifier === t.userMasterIdentifier) &&
  (t.role === "teacher" || (u.grade === t.grade && u.className === t.className && u.number === t.number));

const disabled = (u: DbUser) => ({
  id: u.id,
  role: u.role as "student" | "teacher",
  sourcedId: u.sourcedId ?? "",
  name: u.name ?? "",
});

const emptyWork = (sourcedId: string, name: string, schoolId: string | null, schoolChanged: boolean): SchoolWork => ({
  sourcedId,
  name,
  schoolId,
  schoolChanged,
  create: [],
  update: [],
  move: [],
  link: [],
  disable: [],
  leaving: [],
  classCreate: [],
  classUpdate: [],
  classDelete: [],
});

/**
 * The account added by hand (CSV import or the students page: no sourcedId) that a new roster person
 * takes over: same e-mail, same school (so same academy), same role. A student row whose e-mail is a
 * teacher's of that school (or the reverse) is refused; anything else is not a link (the e-mail check
 * then reports `emailTaken`). No link by 年・組・番号 and name (docs/adr/0066-linking-hand-added-accounts.md).
 */
function linkOf(
  state: RosterState,
  email: string,
  role: "student" | "teacher",
  w: SchoolWork,
): DbUser | "roleMismatch" | undefined {
  const candidate = state.unsourcedByEmail.get(email);
  if (
    !candidate ||
    !w.schoolId ||
    candidate.schoolId !== w.schoolId ||
    candidate.academyId !== state.academyId ||
    candidate.sourcedId !== null
  )
    return undefined;
  if (candidate.role === "manager") return undefined;
  return candidate.role === role ? candidate : "roleMismatch";
}

/** What each 組 is, by sourcedId: its year and name, and its school's org sourcedId. */
type ClassInfo = Map<string, { grade: number | null; className: string; schoolOrg: string }>;
type SeatEnrollment = { classSourcedId: string; number: number | null; line: number };
type PlannedUser = { t: UserTarget; w: SchoolWork; existing: DbUser | undefined; line: number; seatLine: number };
/** A person about to be placed: the target, the school, the account they are (or link to), and where they come from. */
interface Placing {
  t: UserTarget;
  w: SchoolWork;
  existing: DbUser | undefined;
  link: DbUser | undefined;
  line: number;
  seat: SeatEnrollment | undefined;
  /** The work of the school the account is in now. */
  existingWork: SchoolWork | undefined;
}

/** One plan being computed: its inputs, the work per school so far, and the problems found. */
interface Planning {
  state: RosterState;
  set: RosterSet;
  problems: Problem[];
  warnings: Problem[];
  /** By org sourcedId. */
  works: Map<string, SchoolWork>;
  bySchoolId: Map<string, SchoolWork>;
  dbSchoolBySourced: Map<string, RosterState["schools"][number]>;
}

/** Schools: by sourcedId, then by exact name (one without a sourcedId), else new. */
function planSchools(p: Planning): void {
  const { state, set } = p;
  for (const org of set.orgs) {
    if (org.type !== "school") continue;
    if (state.foreignSchools.has(org.sourcedId)) {
      p.problems.push(problem("orgs.csv", org.line, "sourcedId", "schoolOfOtherAcademy"));
      continue;
    }
    const known =
      p.dbSchoolBySourced.get(org.sourcedId) ?? state.schools.find((s) => s.sourcedId === null && s.name === org.name);
    const w = emptyWork(
      org.sourcedId,
      org.name,
      known?.id ?? null,
      !known || known.name !== org.name || known.sourcedId !== org.sourcedId,
    );
    p.works.set(org.sourcedId, w);
    if (known) p.bySchoolId.set(known.id, w);
  }
}

/** The work of a school by org sourcedId; a school a delta names only by reference is known from earlier imports. */
function schoolWork(p: Planning, orgSourcedId: string): SchoolWork | undefined {
  const found = p.works.get(orgSourcedId);
  if (found) return found;
  const known = p.dbSchoolBySourced.get(orgSourcedId);
  if (!known) return undefined;
  const w = emptyWork(orgSourcedId, known.name, known.id, false);
  p.works.set(orgSourcedId, w);
  p.bySchoolId.set(known.id, w);
  return w;
}

function workOfSchoolId(p: Planning, schoolId: string | null): SchoolWork | undefined {
  if (!schoolId) return undefined;
  const found = p.bySchoolId.get(schoolId);
  if (found) return found;
  const known = p.state.schools.find((s) => s.id === schoolId);
  return known?.sourcedId ? schoolWork(p, known.sourcedId) : undefined;
}

/** Each homeroom's 担任 as the primary teacher enrollments name them (null: enrollment deleted). */
function homeroomTeachers(set: RosterSet): Map<string, string | null> {
  const teacherOf = new Map<string, string | null>();
  for (const e of set.enrollments) {
    if (e.role !== "teacher" || e.primary !== true) continue;
    teacherOf.set(e.classSourcedId, e.status === "tobedeleted" ? null : e.userSourcedId);
  }
  return teacherOf;
}

/** Homerooms and their 担任: created, updated or deleted; `seenClasses` holds the ids of those the database had. */
function planClasses(p: Planning): { classInfo: ClassInfo; seenClasses: Set<string> } {
  const { state, set } = p;
  const teacherOf = homeroomTeachers(set);
  const dbClassBySourced = new Map(state.classes.map((c) => [`${c.schoolId}|${c.sourcedId}`, c]));
  const classInfo: ClassInfo = new Map();
  const seenClasses = new Set<string>();
  for (const c of set.classes) {
    if (c.classType !== "homeroom") continue;
    const w = schoolWork(p, c.schoolSourcedId);
    if (!w) {
      p.problems.push(problem("classes.csv", c.line, "schoolSourcedId", "unknownSchool"));
      continue;
    }
    const existing = w.schoolId ? dbClassBySourced.get(`${w.schoolId}|${c.sourcedId}`) : undefined;
    seenClasses.add(existing?.id ?? "");
    if (c.status === "tobedeleted") {
      if (existing) w.classDelete.push(existing.id);
      continue;
    }
    const keepTeacher = existing?.homeroomTeacherId ? (state.sourcedOf.get(existing.homeroomTeacherId) ?? null) : null;
    const target = classTarget(
      c,
      teacherOf.has(c.sourcedId)
        ? teacherOf.get(c.sourcedId)!
        : set.manifest.files.enrollments === "bulk"
          ? null
          : keepTeacher,
    );
    classInfo.set(c.sourcedId, { grade: target.grade, className: target.className, schoolOrg: w.sourcedId });
    if (!existing) w.classCreate.push(target);
    else {
      const same =
        existing.title === target.title &&
        existing.gradeCode === target.gradeCode &&
        existing.className === target.className &&
        existing.classCode === target.classCode &&
        existing.courseSourcedId === target.courseSourcedId &&
        existing.termSourcedId === target.termSourcedId &&
        keepTeacher === target.teacherSourcedId;
      if (!same) w.classUpdate.push({ id: existing.id, target });
    }
  }
  return { classInfo, seenClasses };
}

/** The 組 the set does not name: known for their people; a bulk classes file deletes those of its schools. */
function classesOnlyInDatabase(p: Planning, classInfo: ClassInfo, seenClasses: Set<string>): void {
  const { state, set } = p;
  const schoolSourcedOf = new Map(state.schools.map((s) => [s.id, s.sourcedId]));
  for (const c of state.classes) {
    const w = p.bySchoolId.get(c.schoolId);
    // a 組 only the database holds: its school is looked up there (a users-only delta names neither)
    const schoolOrg = w?.sourcedId ?? schoolSourcedOf.get(c.schoolId) ?? "";
    if (!classInfo.has(c.sourcedId)) classInfo.set(c.sourcedId, { grade: c.grade, className: c.className, schoolOrg });
    if (
      w &&
      set.manifest.files.classes === "bulk" &&
      p.works.has(w.sourcedId) &&
      set.orgs.some((o) => o.sourcedId === w.sourcedId) &&
      !seenClasses.has(c.id)
    )
      w.classDelete.push(c.id);
  }
}

/** What the people of the set are planned with, and the targets planned so far. */
interface PeoplePlanning {
  classInfo: ClassInfo;
  /** The primary role decides student or teacher and the school. */
  primaryRole: Map<string, { role: string; org: string; line: number }>;
  seatEnrollment: Map<string, SeatEnrollment>;
  rowOf: Map<string, RosterUser>;
  targets: PlannedUser[];
  emailsSeen: Map<string, number>;
  umisSeen: Set<string>;
}

function primaryRoles(set: RosterSet): PeoplePlanning["primaryRole"] {
  const primaryRole: PeoplePlanning["primaryRole"] = new Map();
  for (const r of set.roles)
    if (r.roleType === "primary" && r.status !== "tobedeleted")
      primaryRole.set(r.userSourcedId, { role: r.role, org: r.orgSourcedId, line: r.line });
  return primaryRole;
}

/** Each student's enrollment in a known 組, with its 出席番号. */
function seatEnrollments(set: RosterSet, classInfo: ClassInfo): Map<string, SeatEnrollment> {
  const seatEnrollment = new Map<string, SeatEnrollment>();
  for (const e of set.enrollments) {
    if (e.role !== "student" || e.status === "tobedeleted" || !classInfo.has(e.classSourcedId)) continue;
    seatEnrollment.set(e.userSourcedId, { classSourcedId: e.classSourcedId, number: e.shussekiNo, line: e.line });
  }
  return seatEnrollment;
}

/** The person as they should be: the row's fields, else the database's; a student's seat from their 組 and enrollment. */
function userTargetOf(
  sourcedId: string,
  role: "student" | "teacher",
  row: RosterUser | undefined,
  existing: DbUser | undefined,
  home: { grade: number | null; className: string } | undefined,
  seat: SeatEnrollment | undefined,
): UserTarget {
  const family = row?.familyName ?? existing?.familyName ?? "";
  const given = row?.givenName ?? existing?.givenName ?? "";
  const kanaFamily = row ? row.kanaFamilyName : (existing?.kanaFamilyName ?? null);
  const kanaGiven = row ? row.kanaGivenName : (existing?.kanaGivenName ?? null);
  const email = row ? row.email?.trim().toLowerCase() || null : (existing?.email ?? null);
  const sameClass = existing && home && existing.grade === home.grade && existing.className === home.className;
  return {
    sourcedId,
    role,
    email,
    familyName: family,
    givenName: given,
    kanaFamilyName: kanaFamily,
    kanaGivenName: kanaGiven,
    name: row ? displayName(family, given) : (existing?.name ?? ""),
    nameKana: row ? readingOf(kanaFamily, kanaGiven) : (existing?.nameKana ?? null),
    userMasterIdentifier: row?.userMasterIdentifier ?? existing?.userMasterIdentifier ?? null,
    grade: role === "student" ? (home?.grade ?? gradeOfCode(row?.grades[0]) ?? existing?.grade ?? null) : null,
    className: role === "student" ? (home?.className ?? existing?.className ?? null) : null,
    number: role === "student" ? (seat ? seat.number : sameClass ? (existing?.number ?? null) : null) : null,
  };
}

/**
 * Whether the person's e-mail and userMasterIdentifier are free for them (no other account holds them,
 * no earlier row of the set has them); the problem when not.
 */
function idsFree(
  p: Planning,
  pp: PeoplePlanning,
  t: UserTarget,
  existing: DbUser | undefined,
  link: DbUser | undefined,
  line: number,
): boolean {
  const { sourcedId, email } = t;
  if (email) {
    const owner = p.state.emailOwners.get(email);
    if ((owner && owner.sourcedId !== sourcedId && owner.id !== link?.id) || pp.emailsSeen.has(email)) {
      p.problems.push(problem("users.csv", line, "email", "emailTaken"));
      return false;
    }
    pp.emailsSeen.set(email, line);
  }
  const umi = t.userMasterIdentifier;
  if (umi && umi !== (existing ?? link)?.userMasterIdentifier) {
    const owner = p.state.umiOwners.get(umi);
    if ((owner && owner.sourcedId !== sourcedId && owner.id !== link?.id) || pp.umisSeen.has(umi)) {
      p.problems.push(problem("users.csv", line, "userMasterIdentifier", "umiTaken"));
      return false;
    }
  }
  if (umi) pp.umisSeen.add(umi);
  return true;
}

/** A person planned: their target kept for the seat check, and their place in the school's work. */
function placePerson(
  p: Planning,
  pp: PeoplePlanning,
  { t, w, existing, link, line, seat, existingWork }: Placing,
): void {
  pp.targets.push({ t, w, existing: existing ?? link, line, seatLine: seat?.line ?? 0 });
  if (t.role === "student" && seat && seat.number === null)
    p.warnings.push(problem("enrollments.csv", seat.line, "metadata.jp.ShussekiNo", "noShussekiNo"));
  if (link) w.link.push({ id: link.id, target: t });
  else if (!existing) w.create.push(t);
  else if (existing.schoolId !== w.schoolId) {
    w.move.push({ id: existing.id, target: t });
    if (existingWork && existingWork !== w) existingWork.leaving.push(existing.id);
  } else if (!sameUser(existing, t)) w.update.push({ id: existing.id, target: t });
}

/** One person the set names (users row or enrollment): disabled, refused with a problem, or planned in their school. */
function planPerson(p: Planning, pp: PeoplePlanning, sourcedId: string): void {
  const { state, problems } = p;
  const row = pp.rowOf.get(sourcedId);
  const existing = state.users.get(sourcedId);
  const line = row?.line ?? 0;
  if (existing && (existing.academyId !== state.academyId || existing.role === "manager")) {
    const file = row ? "users.csv" : "enrollments.csv";
    problems.push(problem(file, line || (pp.seatEnrollment.get(sourcedId)?.line ?? 0), "sourcedId", "idUnusable"));
    return;
  }
  if (row?.status === "tobedeleted") {
    if (existing && !existing.disabled && existing.role !== "manager")
      workOfSchoolId(p, existing.schoolId)?.disable.push(disabled(existing));
    return;
  }
  const roleRow = pp.primaryRole.get(sourcedId);
  const role = roleRow ? roleRow.role : existing?.role;
  if (role !== "student" && role !== "teacher") return; // guardians, district staff: not people of a school here (docs/adr/0065-oneroster-roles.md)
  if (existing && existing.role !== role) {
    problems.push(problem("roles.csv", roleRow?.line ?? 0, "role", "roleChanged"));
    return;
  }
  const seat = pp.seatEnrollment.get(sourcedId);
  const homeClass = row?.homeClass ?? seat?.classSourcedId ?? null;
  const home = homeClass ? pp.classInfo.get(homeClass) : undefined;
  const existingWork = workOfSchoolId(p, existing?.schoolId ?? null);
  const w = roleRow ? schoolWork(p, roleRow.org) : home ? schoolWork(p, home.schoolOrg) : existingWork;
  if (!w) {
    problems.push(
      problem(
        roleRow ? "roles.csv" : "users.csv",
        roleRow?.line ?? line,
        roleRow ? "orgSourcedId" : "sourcedId",
        "unknownSchool",
      ),
    );
    return;
  }
  const t = userTargetOf(sourcedId, role, row, existing, home, seat);
  const link = existing || !t.email ? undefined : linkOf(state, t.email, role, w);
  if (link === "roleMismatch") {
    problems.push(problem("users.csv", line, "email", "linkRoleMismatch"));
    return;
  }
  if (link && !seat && home && link.grade === home.grade && link.className === home.className) t.number = link.number;
  if (!idsFree(p, pp, t, existing, link, line)) return;
  placePerson(p, pp, { t, w, existing, link, line, seat, existingWork });
}

/** The people the set names (users rows and student enrollments), planned one by one. */
function planPeople(p: Planning, classInfo: ClassInfo): { targets: PlannedUser[]; touched: Set<string> } {
  const { set } = p;
  const primaryRole = primaryRoles(set);
  const seatEnrollment = seatEnrollments(set, classInfo);
  const rowOf = new Map<string, RosterUser>(set.users.map((u) => [u.sourcedId, u]));
  const touched = new Set<string>([...rowOf.keys(), ...seatEnrollment.keys()]);
  const pp: PeoplePlanning = {
    classInfo,
    primaryRole,
    seatEnrollment,
    rowOf,
    targets: [],
    emailsSeen: new Map(),
    umisSeen: new Set(),
  };
  for (const sourcedId of touched) planPerson(p, pp, sourcedId);
  return { targets: pp.targets, touched };
}

/** A bulk users file is the whole list of its schools: roster people left out are disabled. */
function disableLeftOut(p: Planning, touched: Set<string>): void {
  const covered = new Set(p.set.orgs.map((o) => o.sourcedId));
  for (const u of p.state.users.values()) {
    const w = workOfSchoolId(p, u.schoolId);
    if (w && covered.has(w.sourcedId) && !u.disabled && u.role !== "manager" && !touched.has(u.sourcedId!))
      w.disable.push(disabled(u));
  }
}

/** Seats: one student per 年・組・番号 in a school, after the change. */
function checkSeats(p: Planning, targets: PlannedUser[]): void {
  const freed = new Set<string>(targets.flatMap((x) => (x.existing ? [x.existing.id] : [])));
  for (const w of p.works.values()) for (const d of w.disable) freed.add(d.id);
  const taken = new Map<string, string>();
  for (const [key, userId] of p.state.seats) if (!freed.has(userId)) taken.set(key, userId);
  for (const { t, w, line, seatLine } of targets) {
    const key =
      t.role === "student" ? seatOf(w.schoolId ?? `new:${w.sourcedId}`, t.grade, t.className, t.number) : null;
    if (!key) continue;
    if (taken.has(key)) {
      p.problems.push(
        problem(
          seatLine ? "enrollments.csv" : "users.csv",
          seatLine || line,
          seatLine ? (p.set.shussekiColumn ?? "metadata.jp.ShussekiNo") : "metadata.jp.homeClass",
          "seatTaken",
          { grade: t.grade!, className: t.className!, number: t.number! },
        ),
      );
      continue;
    }
    taken.set(key, t.sourcedId);
  }
}

/** The plan and the work behind it. `problems` non-empty: nothing may be applied. */
export function computePlan(state: RosterState, set: RosterSet): { plan: RosterPlan; work: SchoolWork[] } {
  const p: Planning = {
    state,
    set,
    problems: [],
    warnings: [],
    works: new Map(),
    bySchoolId: new Map(),
    dbSchoolBySourced: new Map(state.schools.filter((s) => s.sourcedId).map((s) => [s.sourcedId!, s])),
  };
  planSchools(p);
  const { classInfo, seenClasses } = planClasses(p);
  classesOnlyInDatabase(p, classInfo, seenClasses);
  const { targets, touched } = planPeople(p, classInfo);
  if (set.manifest.files.users === "bulk") disableLeftOut(p, touched);
  checkSeats(p, targets);

  const all = [...p.works.values()];
  const byPlace = (a: Problem, b: Problem) => a.file.localeCompare(b.file) || a.line - b.line;
  return {
    plan: { schools: all.map(summaryOf), problems: p.problems.sort(byPlace), warnings: p.warnings.sort(byPlace) },
    work: all,
  };
}

const userRow = (action: PreviewRow["action"], t: UserTarget): PreviewRow => ({
  action,
  sourcedId: t.sourcedId,
  name: t.name,
  nameKana: t.nameKana,
  grade: t.grade,
  className: t.className,
  number: t.number,
});
const listed = (rows: PreviewRow[]): PreviewList => ({ rows: rows.slice(0, PREVIEW_ROWS), total: rows.length });
const counts = (create: number, update: number, move: number, disable: number, link = 0): Counts => ({
  create,
  update,
  move,
  disable,
  link,
});

function summaryOf(w: SchoolWork) {
  const people = (role: UserTarget["role"]) => [
    ...w.create.filter((t) => t.role === role).map((t) => userRow("create", t)),
    ...w.update.filter((x) => x.target.role === role).map((x) => userRow("update", x.target)),
    ...w.move.filter((x) => x.target.role === role).map((x) => userRow("move", x.target)),
    ...w.link.filter((x) => x.target.role === role).map((x) => userRow("link", x.target)),
    ...w.disable
      .filter((d) => d.role === role)
      .map((d): PreviewRow => ({
        action: "disable",
        sourcedId: d.sourcedId,
        name: d.name,
        nameKana: null,
        grade: null,
        className: null,
        number: null,
      })),
  ];
  const students = people("student");
  const teachers = people("teacher");
  const n = (rows: PreviewRow[], action: PreviewRow["action"]) => rows.filter((r) => r.action === action).length;
  const classRow = (action: PreviewRow["action"], c: ClassTarget): PreviewRow => ({
    action,
    sourcedId: c.sourcedId,
    name: c.title,
    nameKana: null,
    grade: c.grade,
    className: c.className,
    number: null,
  });
  const classes = [
    ...w.classCreate.map((c) => classRow("create", c)),
    ...w.classUpdate.map((x) => classRow("update", x.target)),
  ];
  return {
    sourcedId: w.sourcedId,
    name: w.name,
    newSchool: w.schoolId === null,
    students: counts(
      n(students, "create"),
      n(students, "update"),
      n(students, "move"),
      n(students, "disable"),
      n(students, "link"),
    ),
    teachers: counts(
      n(teachers, "create"),
      n(teachers, "update"),
      n(teachers, "move"),
      n(teachers, "disable"),
      n(teachers, "link"),
    ),
    classes: counts(w.classCreate.length, w.classUpdate.length, 0, w.classDelete.length),
    preview: { students: listed(students), teachers: listed(teachers), classes: listed(classes) },
  };
}
