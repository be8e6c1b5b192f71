import "server-only";
import {
  READ_FILES,
  ROSTER_PROFILES,
  type ProfileName,
  type ReadFile,
} from "@/features/rostering/shared/oneroster-columns";
import { ROSTER_FILES } from "@/features/rostering/shared/oneroster-files";
import {
  type Enrollment,
  type FileMode,
  type Org,
  type RosterClass,
  type RosterRole,
  type RosterSet,
  type RosterUser,
} from "@/features/rostering/shared/oneroster-model";
import { type RowFields, rowOfFields } from "@/features/rostering/shared/oneroster-record";
import { assignIds, storeClassSourcedIds } from "./export-commands";
import {
  findAcademySchoolIds,
  findRecordedRows,
  findUsersBySourcedId,
  type Held,
  loadHeldRows,
} from "./export-queries";
import { exportProfileOf } from "./queries";
import { derivedId, schoolYearOf, toKatakana } from "./rules";

type Recorded = { [F in ReadFile]: Map<string, RosterSet[F][number]> };

/**
 * The rows the academy has received and not seen deleted (docs/oneroster.md "The sourcedId record"), of
 * these schools and those of no school (districts, academic sessions), as the reader built them.
 */
async function recordedRows(academyId: string, schoolSourcedIds: string[]): Promise<Recorded> {
  const rows = await findRecordedRows(academyId, schoolSourcedIds);
  const out = Object.fromEntries(READ_FILES.map((f) => [f, new Map()])) as Recorded;
  for (const r of rows) {
    const file = READ_FILES.find((f) => f === r.kind);
    if (file)
      (out[file] as Map<string, unknown>).set(
        r.sourcedId,
        rowOfFields(file, { sourcedId: r.sourcedId, status: null, dateLastModified: null }, r.fields as RowFields, 0),
      );
  }
  return out;
}

/** The same list when the product's first value is the sent list's first (a 組 keeps one grade code and one term). */
const keepList = (sent: string[] | undefined, ours: string | null) =>
  sent && sent[0] === (ours ?? undefined) ? sent : ours ? [ours] : (sent ?? []);
const numbered = <T extends { line: number }>(rows: T[]): T[] => rows.map((r, i) => ({ ...r, line: i + 2 }));

/**
 * The academy (or one school of it) as a OneRoster bulk set, for the writer in features/rostering:
 * the rows the academy was sent (its record of received rows) with what the product now holds laid
 * over them (names, readings, e-mail, 組, 番号, 担任), so an import followed by an export gives the same
 * rows. Stable ids: a school, person or 組 without a sourcedId (or person without a userMasterIdentifier)
 * gets a UUID v4 stored now, so every later export names it the same; rows nobody sent (sessions,
 * courses, roles, enrollments of what the product made) get ids derived from what they join.
 * Disabled people are left out (a bulk set lists who is there).
 */
export interface ExportOptions {
  /** One school of the academy instead of all. */
  schoolId?: string;
  /** The Japan profile to write (default: the profile of the academy's last applied set, else 1.2). */
  profile?: ProfileName;
  /** A delta set instead, of what changed at or after this time (deltaSince). */
  since?: Date;
}

type HeldClass = Held["classes"][number];
type HeldPerson = Held["people"][number];

/** What the parts of a set are built from: the rows held and received, and the ids they join on. */
interface Exporting {
  held: Held;
  rec: Recorded;
  year: number;
  /** The 年度 the product's 組 are in. */
  session: string;
  district: string;
  schoolSourced: Map<string, string>;
  exportedSchools: Set<string>;
}

const bulk = (sourcedId: string, line: number) => ({ sourcedId, status: null, dateLastModified: null, line });
const courseOf = (c: HeldClass) => c.courseSourcedId ?? derivedId(`course:${c.sourcedId}`);

/** Every file of the set absent but those the reader reads: bulk, or delta. */
function filesOf(since: Date | undefined) {
  const files = Object.fromEntries(ROSTER_FILES.map((f) => [f, "absent"])) as Record<
    (typeof ROSTER_FILES)[number],
    FileMode
  >;
  for (const f of READ_FILES) files[f] = since ? "delta" : "bulk";
  return files;
}

/** A 組 the product made keeps the course and 年度 ids it is exported with, so the next import sees no change. */
async function storeClassIds(classes: HeldClass[], session: string) {
  for (const c of classes.filter((c) => c.courseSourcedId === null || c.termSourcedId === null)) {
    c.courseSourcedId ??= derivedId(`course:${c.sourcedId}`);
    c.termSourcedId ??= session;
    await storeClassSourcedIds(c.id, c.courseSourcedId, c.termSourcedId);
  }
}

/** Orgs: what was sent (学校コード, district), with the school's name as the product holds it. */
function orgsOf({ held, rec, district }: Exporting) {
  const schoolOrgs: Org[] = held.schoolRows.map((s, i) => {
    const sent = rec.orgs.get(s.sourcedId!);
    const parent = sent
      ? sent.parentSourcedId && rec.orgs.has(sent.parentSourcedId)
        ? sent.parentSourcedId
        : sent.parentSourcedId
          ? district
          : null
      : district;
    return {
      ...(sent ?? { ...bulk(s.sourcedId!, i), identifier: null }),
      name: s.name,
      type: "school",
      parentSourcedId: parent,
    };
  });
  const districts: Org[] = [...new Set(schoolOrgs.map((o) => o.parentSourcedId))].flatMap((id) => {
    if (!id) return [];
    const sent = rec.orgs.get(id);
    return [
      sent ?? {
        ...bulk(district, 0),
        name: held.academy.name,
        type: "district" as const,
        identifier: null,
        parentSourcedId: null,
      },
    ];
  });
  return { schoolOrgs, districts };
}

/** Courses: those sent for the exported schools, then one per course of a 組 that nobody sent. */
function coursesOf({ held, rec, year, session, schoolSourced, exportedSchools }: Exporting) {
  const sentCourses = [...rec.courses.values()].filter((c) => exportedSchools.has(c.orgSourcedId));
  return [
    ...sentCourses,
    ...[
      ...new Map(held.classes.filter((c) => !rec.courses.has(courseOf(c))).map((c) => [courseOf(c), c])).entries(),
    ].map(([id, c]) => ({
      ...bulk(id, 0),
      schoolYearSourcedId: session,
      title: `${year}年度ホームルーム`,
      grades: c.gradeCode ? [c.gradeCode] : [],
      orgSourcedId: schoolSourced.get(c.schoolId)!,
      subjects: [],
      subjectCodes: [],
    })),
  ];
}

/** Homerooms: the product's 組 over what was sent (location, subjects, specialNeeds as sent); every other class as sent. */
function classesOf({ held, rec, session, schoolSourced, exportedSchools }: Exporting): RosterClass[] {
  const homerooms: RosterClass[] = held.classes.map((c) => {
    const sent = rec.classes.get(c.sourcedId);
    return {
      ...(sent ?? { ...bulk(c.sourcedId, 0), location: null, subjects: [], subjectCodes: [], specialNeeds: false }),
      title: c.title,
      grades: keepList(sent?.grades, c.gradeCode),
      courseSourcedId: courseOf(c),
      classCode: c.classCode,
      classType: "homeroom",
      schoolSourcedId: schoolSourced.get(c.schoolId)!,
      termSourcedIds: keepList(sent?.termSourcedIds, c.termSourcedId ?? session),
    };
  });
  const otherClasses = [...rec.classes.values()].filter(
    (c) => c.classType !== "homeroom" && exportedSchools.has(c.schoolSourcedId),
  );
  return [...homerooms, ...otherClasses];
}

/** The sourcedIds of the people sent that the product holds (in any school). */
async function heldSourcedIds(rec: Recorded): Promise<Set<string>> {
  const rows = await findUsersBySourcedId([...rec.users.keys()]);
  return new Set(rows.map((u) => u.sourcedId!));
}

/** A person's name parts: those an import stored, else the name and its reading split at the first space. */
function rosterNamesOf(p: HeldPerson) {
  const [family, ...given] = (p.name ?? "").split(/\s+/);
  const [kanaFamily, ...kanaGiven] = (p.nameKana ?? "").split(/\s+/);
  // parts an import stored are the readings as sent (a missing one stays missing); else the stored reading split
  const parts = p.familyName !== null || p.givenName !== null;
  const kana = (stored: string | null, split: string) =>
    (parts ? stored : (stored ?? split)) ? toKatakana((parts ? stored : (stored ?? split))!) : null;
  return {
    familyName: p.familyName ?? family ?? "",
    givenName: p.givenName ?? given.join(" "),
    kanaGivenName: kana(p.kanaGivenName, kanaGiven.join(" ")),
    kanaFamilyName: kana(p.kanaFamilyName, kanaFamily ?? ""),
  };
}

/** A person: the product's names, readings, e-mail and 組 over what was sent (identifier, userIds, middle names, …). */
function rosterUserOf(
  { rec, schoolSourced }: Exporting,
  p: HeldPerson,
  home: HeldClass | undefined,
  exportedClasses: Set<string>,
): RosterUser {
  const sent = rec.users.get(p.sourcedId!);
  const { familyName, givenName, kanaGivenName, kanaFamilyName } = rosterNamesOf(p);
  const sameName = sent?.familyName === familyName && sent.givenName === givenName;
  return {
    ...(sent ?? {
      ...bulk(p.sourcedId!, 0),
      userIds: [],
      middleName: null,
      identifier: null,
      preferredMiddleName: null,
      kanaMiddleName: null,
    }),
    enabledUser: true,
    username: sent?.username ?? p.email ?? p.sourcedId!,
    givenName,
    familyName,
    email: p.email,
    grades: p.role === "student" ? keepList(sent?.grades, home?.gradeCode ?? null) : (sent?.grades ?? []),
    userMasterIdentifier: p.userMasterIdentifier,
    preferredGivenName: sameName ? sent.preferredGivenName : givenName,
    preferredFamilyName: sameName ? sent.preferredFamilyName : familyName,
    primaryOrgSourcedId: schoolSourced.get(p.schoolId!)!,
    kanaGivenName,
    kanaFamilyName,
    homeClass:
      p.role === "student"
        ? (home?.sourcedId ?? null)
        : sent?.homeClass && exportedClasses.has(sent.homeClass)
          ? sent.homeClass
          : null,
  };
}

/** The people held, each with the 組 the product holds a student in (`homeOf`, by sourcedId). */
function usersOf(x: Exporting, exportedClasses: Set<string>) {
  const { classes, people } = x.held;
  const classOf = new Map(classes.map((c) => [`${c.schoolId}|${c.grade}|${c.className}`, c]));
  const homeOf = new Map<string, HeldClass>();
  const users = people.map((p) => {
    const home = p.student ? classOf.get(`${p.schoolId}|${p.student.grade}|${p.student.className}`) : undefined;
    if (home) homeOf.set(p.sourcedId!, home);
    return rosterUserOf(x, p, home, exportedClasses);
  });
  return { users, homeOf };
}

/** Roles: those sent for the exported people, then a primary role for each person held without one. */
function rolesOf({ held, rec, schoolSourced }: Exporting, exportedUsers: Set<string>): RosterRole[] {
  const sentRoles = [...rec.roles.values()].filter((r) => exportedUsers.has(r.userSourcedId));
  const withPrimary = new Set(sentRoles.filter((r) => r.roleType === "primary").map((r) => r.userSourcedId));
  return [
    ...sentRoles,
    ...held.people
      .filter((p) => !withPrimary.has(p.sourcedId!))
      .map((p) => ({
        ...bulk(derivedId(`role:${p.sourcedId}`), 0),
        userSourcedId: p.sourcedId!,
        roleType: "primary" as const,
        role: p.role === "student" ? ("student" as const) : ("teacher" as const),
        orgSourcedId: schoolSourced.get(p.schoolId!)!,
        beginDate: null,
        endDate: null,
      })),
  ];
}

/** When each school, 組 and person last changed (a student: their row or their details, the later). */
function changedAtOf({ schoolRows, classes, people }: Held): Map<string, Date> {
  return new Map<string, Date>([
    ...schoolRows.map((s) => [s.sourcedId!, s.updatedAt] as const),
    ...classes.map((c) => [c.sourcedId, c.updatedAt] as const),
    ...people.map(
      (p) =>
        [p.sourcedId!, p.student && p.student.updatedAt > p.updatedAt ? p.student.updatedAt : p.updatedAt] as const,
    ),
  ]);
}

export async function rosterSetOfAcademy(academyId: string, options: ExportOptions = {}): Promise<RosterSet | null> {
  const { schoolId, since } = options;
  const schools = await findAcademySchoolIds(academyId, schoolId);
  if (schools.length === 0) return null;
  const ids = schools.map((s) => s.id);
  await assignIds(ids);
  const held = await loadHeldRows(academyId, ids, since);
  const { schoolRows, classes, people } = held;
  const profile = options.profile ?? (await exportProfileOf(academyId));
  const schoolSourced = new Map(schoolRows.map((s) => [s.id, s.sourcedId!]));
  const exportedSchools = new Set(schoolSourced.values());
  const userSourced = new Map(people.map((p) => [p.id, p.sourcedId!]));
  const rec = await recordedRows(academyId, [...exportedSchools]);
  const year = schoolYearOf(new Date());
  const terms = classes.flatMap((c) => (c.termSourcedId ? [c.termSourcedId] : []));
  const session = terms[0] ?? derivedId(`session:${academyId}:${year}`);
  const district = derivedId(`district:${academyId}`);
  const x: Exporting = { held, rec, year, session, district, schoolSourced, exportedSchools };
  await storeClassIds(classes, session);

  const { schoolOrgs, districts } = orgsOf(x);
  const courses = coursesOf(x);
  const rosterClasses = classesOf(x);
  const exportedClasses = new Set(rosterClasses.map((c) => c.sourcedId));
  // people sent with roles the product does not hold (guardians, district staff) as sent
  const heldSent = await heldSourcedIds(rec);
  const { users, homeOf } = usersOf(x, exportedClasses);
  const notHeld = [...rec.users.values()].filter((u) => !heldSent.has(u.sourcedId));
  const exportedUsers = new Set([...users, ...notHeld].map((u) => u.sourcedId));
  const roles = rolesOf(x, exportedUsers);
  const enrollments = enrollmentsOf(
    rec,
    classes,
    homeOf,
    people,
    userSourced,
    schoolSourced,
    exportedUsers,
    exportedClasses,
  );
  const set: RosterSet = {
    manifest: {
      onerosterVersion: ROSTER_PROFILES[profile].onerosterVersion,
      profile,
      files: filesOf(since),
      sourceSystemName: "Manabiya",
      sourceSystemCode: null,
    },
    academicSessions: numbered(sessionsOf(rec, session, year, courses, rosterClasses)),
    orgs: numbered([...districts, ...schoolOrgs]),
    courses: numbered(courses),
    classes: numbered(rosterClasses),
    users: numbered([...users, ...notHeld]),
    roles: numbered(roles),
    enrollments: numbered(enrollments),
  };
  if (!since) return set;
  return deltaSince(set, since, changedAtOf(held), new Set(people.filter((p) => p.disabled).map((p) => p.sourcedId!)));
}

/** The academic sessions the exported courses and classes name: as sent, or the product's 年度. */
function sessionsOf(
  rec: Recorded,
  session: string,
  year: number,
  courses: RosterSet["courses"],
  classes: RosterClass[],
): RosterSet["academicSessions"] {
  const named = new Set([
    ...courses.flatMap((c) => (c.schoolYearSourcedId ? [c.schoolYearSourcedId] : [])),
    ...classes.flatMap((c) => c.termSourcedIds),
  ]);
  return [...named].flatMap((id) => {
    const sent = rec.academicSessions.get(id);
    if (sent) return [sent];
    return id === session
      ? [
          {
            sourcedId: session,
            status: null,
            dateLastModified: null,
            line: 0,
            title: `${year}年度`,
            type: "schoolYear",
            startDate: `${year}-04-01`,
            endDate: `${year + 1}-03-31`,
            schoolYear: year,
          },
        ]
      : [];
  });
}

/**
 * The delta of a whole set since a time: the schools, 組 and people changed at or after it (their
 * `changedAt`, which becomes the rows' dateLastModified) as `active` rows, with the rows that belong
 * to them (a 組's course, 年度 and 担任's enrollment, a person's role and homeroom enrollment, a
 * school's district); people disabled since as `tobedeleted` (their role and enrollment too).
 * Everything else is left out.
 */
function deltaSince(set: RosterSet, since: Date, changedAt: Map<string, Date>, disabled: Set<string>): RosterSet {
  const changed = (id: string) => {
    const at = changedAt.get(id);
    return at !== undefined && at >= since;
  };
  const stamp = (id: string) => (changedAt.get(id) ?? since).toISOString();
  const row = <T extends { sourcedId: string }>(r: T, owner: string, deleted = false): T => ({
    ...r,
    status: deleted ? "tobedeleted" : "active",
    dateLastModified: stamp(owner),
  });
  const lines = <T extends { line: number }>(rows: T[]) => rows.map((r, i) => ({ ...r, line: i + 2 }));

  const classes = set.classes.filter((c) => changed(c.sourcedId));
  const courseOwner = new Map(classes.map((c) => [c.courseSourcedId, c.sourcedId]));
  const sessions = new Set(classes.flatMap((c) => c.termSourcedIds));
  const users = set.users.filter((u) => changed(u.sourcedId));
  const userIds = new Set(users.map((u) => u.sourcedId));
  const classIds = new Set(classes.map((c) => c.sourcedId));
  const schools = set.orgs.filter((o) => o.type === "school" && changed(o.sourcedId));
  const districts = new Set(schools.map((s) => s.parentSourcedId));
  const firstClass = classes[0]?.sourcedId ?? "";
  return {
    ...set,
    academicSessions: lines(
      set.academicSessions.filter((s) => sessions.has(s.sourcedId)).map((s) => row(s, firstClass)),
    ),
    orgs: lines(
      set.orgs
        .filter((o) => districts.has(o.sourcedId))
        .map((o) => row(o, schools[0]!.sourcedId))
        .concat(schools.map((s) => row(s, s.sourcedId))),
    ),
    courses: lines(
      set.courses.filter((c) => courseOwner.has(c.sourcedId)).map((c) => row(c, courseOwner.get(c.sourcedId)!)),
    ),
    classes: lines(classes.map((c) => row(c, c.sourcedId))),
    users: lines(users.map((u) => row(u, u.sourcedId, disabled.has(u.sourcedId)))),
    roles: lines(
      set.roles
        .filter((r) => userIds.has(r.userSourcedId))
        .map((r) => row(r, r.userSourcedId, disabled.has(r.userSourcedId))),
    ),
    enrollments: lines(
      set.enrollments
        .filter((e) => userIds.has(e.userSourcedId) || classIds.has(e.classSourcedId))
        .map((e) =>
          row(e, userIds.has(e.userSourcedId) ? e.userSourcedId : e.classSourcedId, disabled.has(e.userSourcedId)),
        ),
    ),
  };
}

type ClassRow = { id: string; sourcedId: string; schoolId: string; homeroomTeacherId: string | null };
type Person = {
  id: string;
  sourcedId: string | null;
  schoolId: string | null;
  role: string;
  disabled: boolean;
  student: { number: number | null } | null;
};

/**
 * Enrollments as sent, where the product agrees: a student's homeroom enrollment only in the 組 the product
 * holds them in, with its 番号; a homeroom's primary teacher enrollments only while the product's 担任 is among
 * them. What the product holds and nobody sent (a 組 or 担任 set on its own screens) gets a derived row.
 */
function enrollmentsOf(
  rec: Recorded,
  classes: ClassRow[],
  homeOf: Map<string, ClassRow>,
  people: Person[],
  userSourced: Map<string, string>,
  schoolSourced: Map<string, string>,
  exportedUsers: Set<string>,
  exportedClasses: Set<string>,
): Enrollment[] {
  const homeroomById = new Map(classes.map((c) => [c.sourcedId, c]));
  const tanninOf = new Map(
    classes.map((c) => [c.sourcedId, c.homeroomTeacherId ? (userSourced.get(c.homeroomTeacherId) ?? null) : null]),
  );
  const numberOf = new Map(people.map((p) => [p.sourcedId!, p.disabled ? null : (p.student?.number ?? null)]));
  const sentPrimaries = new Map<string, Set<string>>();
  for (const e of rec.enrollments.values()) {
    if (e.role === "teacher" && e.primary === true)
      sentPrimaries.set(e.classSourcedId, (sentPrimaries.get(e.classSourcedId) ?? new Set()).add(e.userSourcedId));
  }
  const heldPeople = new Set(people.map((p) => p.sourcedId!));
  const out: Enrollment[] = [];
  const covered = new Set<string>();
  for (const e of rec.enrollments.values()) {
    if (!exportedUsers.has(e.userSourcedId) || !exportedClasses.has(e.classSourcedId)) continue;
    const homeroom = homeroomById.get(e.classSourcedId);
    if (homeroom && e.role === "student" && heldPeople.has(e.userSourcedId)) {
      if (homeOf.get(e.userSourcedId)?.sourcedId !== homeroom.sourcedId) continue; // moved to another 組 since
      covered.add(`${e.userSourcedId}|${homeroom.sourcedId}`);
      out.push({ ...e, shussekiNo: numberOf.get(e.userSourcedId) ?? null });
      continue;
    }
    if (homeroom && e.role === "teacher" && e.primary === true) {
      const tannin = tanninOf.get(homeroom.sourcedId);
      if (!tannin || !sentPrimaries.get(homeroom.sourcedId)?.has(tannin)) continue; // the 担任 changed since
      covered.add(`${e.userSourcedId}|${homeroom.sourcedId}`);
    }
    out.push(e);
  }
  const derived = (c: ClassRow, user: string, role: "student" | "teacher", number: number | null) => {
    if (covered.has(`${user}|${c.sourcedId}`)) return;
    out.push({
      sourcedId: derivedId(`enrollment:${user}:${c.sourcedId}`),
      status: null,
      dateLastModified: null,
      line: 0,
      classSourcedId: c.sourcedId,
      schoolSourcedId: schoolSourced.get(c.schoolId)!,
      userSourcedId: user,
      role,
      primary: role === "teacher",
      beginDate: null,
      endDate: null,
      shussekiNo: number,
      publicFlg: true,
    });
  };
  for (const c of classes) {
    const tannin = tanninOf.get(c.sourcedId);
    if (tannin && !sentPrimaries.get(c.sourcedId)?.has(tannin)) derived(c, tannin, "teacher", null);
  }
  for (const p of people) {
    const home = homeOf.get(p.sourcedId!);
    if (home) derived(home, p.sourcedId!, "student", numberOf.get(p.sourcedId!) ?? null);
  }
  return out;
}
