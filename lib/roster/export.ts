import "server-only";
import { db } from "@/lib/db";
import { READ_FILES, ROSTER_PROFILES, type ProfileName } from "@/lib/oneroster/columns";
import { ROSTER_FILES, type Enrollment, type FileMode, type RosterClass, type RosterSet, type RosterUser } from "@/lib/oneroster/model";
import { exportProfileOf } from "./data";
import { derivedId, schoolYearOf, toKatakana } from "./rules";

/**
 * The academy (or one school of it) as a OneRoster bulk set, for the writer in lib/oneroster.
 * Stable ids: a school, person or 組 without a sourcedId (or person without a userMasterIdentifier)
 * gets a UUID v4 stored now, so every later export names it the same; rows the product does not
 * keep (sessions, courses, roles, enrollments) get ids derived from what they join.
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

export async function rosterSetOfAcademy(academyId: string, options: ExportOptions = {}): Promise<RosterSet | null> {
  const { schoolId, since } = options;
  const schools = await db().school.findMany({ where: { academyId, ...(schoolId ? { id: schoolId } : {}) }, orderBy: { createdAt: "asc" }, select: { id: true } });
  if (schools.length === 0) return null;
  const ids = schools.map((s) => s.id);
  await assignIds(ids);
  const [academy, schoolRows, classes, people] = await Promise.all([
    db().academy.findUniqueOrThrow({ where: { id: academyId }, select: { name: true } }),
    db().school.findMany({ where: { id: { in: ids } }, orderBy: { createdAt: "asc" }, select: { id: true, name: true, sourcedId: true, updatedAt: true } }),
    db().rosterClass.findMany({ where: { schoolId: { in: ids } }, orderBy: [{ schoolId: "asc" }, { grade: "asc" }, { className: "asc" }] }),
    db().user.findMany({
      // a delta also names the people disabled since (as tobedeleted)
      where: { schoolId: { in: ids }, role: { in: ["student", "teacher"] }, ...(since ? { OR: [{ disabled: false }, { updatedAt: { gte: since } }] } : { disabled: false }) },
      orderBy: [{ role: "asc" }, { createdAt: "asc" }, { id: "asc" }],
      select: {
        id: true, role: true, schoolId: true, sourcedId: true, userMasterIdentifier: true, email: true, name: true, nameKana: true, disabled: true, updatedAt: true,
        familyName: true, givenName: true, kanaFamilyName: true, kanaGivenName: true, student: { select: { grade: true, className: true, number: true, updatedAt: true } },
      },
    }),
  ]);
  const profile = options.profile ?? (await exportProfileOf(academyId));
  const schoolSourced = new Map(schoolRows.map((s) => [s.id, s.sourcedId!]));
  const userSourced = new Map(people.map((p) => [p.id, p.sourcedId!]));
  const year = schoolYearOf(new Date());
  const terms = classes.flatMap((c) => (c.termSourcedId ? [c.termSourcedId] : []));
  const session = terms[0] ?? derivedId(`session:${academyId}:${year}`);
  const district = derivedId(`district:${academyId}`);
  const files = Object.fromEntries(ROSTER_FILES.map((f) => [f, "absent"])) as Record<(typeof ROSTER_FILES)[number], FileMode>;
  for (const f of READ_FILES) files[f] = since ? "delta" : "bulk";
  const bulk = (sourcedId: string, line: number) => ({ sourcedId, status: null, dateLastModified: null, line });

  // a 組 the product made keeps the course and 年度 ids it is exported with, so the next import sees no change
  for (const c of classes.filter((c) => c.courseSourcedId === null || c.termSourcedId === null)) {
    c.courseSourcedId ??= derivedId(`course:${c.sourcedId}`);
    c.termSourcedId ??= session;
    await db().rosterClass.update({ where: { id: c.id }, data: { courseSourcedId: c.courseSourcedId, termSourcedId: c.termSourcedId }, select: { id: true } });
  }
  const classOf = new Map(classes.map((c) => [`${c.schoolId}|${c.grade}|${c.className}`, c]));
  const courseOf = (c: (typeof classes)[number]) => c.courseSourcedId ?? derivedId(`course:${c.sourcedId}`);
  const courses = [...new Map(classes.map((c) => [courseOf(c), c])).entries()].map(([id, c], i) => ({
    ...bulk(id, i + 2), schoolYearSourcedId: session, title: `${year}年度ホームルーム`, grades: c.gradeCode ? [c.gradeCode] : [],
    orgSourcedId: schoolSourced.get(c.schoolId)!, subjects: [], subjectCodes: [],
  }));
  const rosterClasses: RosterClass[] = classes.map((c, i) => ({
    ...bulk(c.sourcedId, i + 2), title: c.title, grades: c.gradeCode ? [c.gradeCode] : [], courseSourcedId: courseOf(c), classCode: c.classCode,
    classType: "homeroom", location: null, schoolSourcedId: schoolSourced.get(c.schoolId)!, termSourcedIds: [c.termSourcedId ?? session], subjects: [], subjectCodes: [], specialNeeds: false,
  }));
  const enrollments: Enrollment[] = [];
  const enroll = (classRow: (typeof classes)[number], userId: string, role: "student" | "teacher", number: number | null) => {
    const user = userSourced.get(userId);
    if (!user) return; // a disabled 担任
    enrollments.push({
      ...bulk(derivedId(`enrollment:${user}:${classRow.sourcedId}`), enrollments.length + 2), classSourcedId: classRow.sourcedId, schoolSourcedId: schoolSourced.get(classRow.schoolId)!,
      userSourcedId: user, role, primary: role === "teacher", beginDate: null, endDate: null, shussekiNo: number, publicFlg: true,
    });
  };
  for (const c of classes) if (c.homeroomTeacherId) enroll(c, c.homeroomTeacherId, "teacher", null);
  const users = people.map((p, i): RosterUser => {
    const home = p.student ? classOf.get(`${p.schoolId}|${p.student.grade}|${p.student.className}`) : undefined;
    if (home) enroll(home, p.id, "student", p.disabled ? null : (p.student?.number ?? null));
    const [family, ...given] = (p.name ?? "").split(/\s+/);
    const [kanaFamily, ...kanaGiven] = (p.nameKana ?? "").split(/\s+/);
    const kana = (stored: string | null, split: string) => (stored ?? split) ? toKatakana(stored ?? split) : null;
    return {
      ...bulk(p.sourcedId!, i + 2), enabledUser: true, username: p.email ?? p.sourcedId!, userIds: [], givenName: p.givenName ?? given.join(" "),
      familyName: p.familyName ?? family ?? "", middleName: null, identifier: null, email: p.email, grades: home?.gradeCode ? [home.gradeCode] : [],
      userMasterIdentifier: p.userMasterIdentifier, preferredGivenName: p.givenName ?? given.join(" "), preferredFamilyName: p.familyName ?? family ?? "",
      preferredMiddleName: null, primaryOrgSourcedId: schoolSourced.get(p.schoolId!)!, kanaGivenName: kana(p.kanaGivenName, kanaGiven.join(" ")),
      kanaFamilyName: kana(p.kanaFamilyName, kanaFamily ?? ""), kanaMiddleName: null, homeClass: home?.sourcedId ?? null,
    };
  });
  const set: RosterSet = {
    manifest: { onerosterVersion: ROSTER_PROFILES[profile].onerosterVersion, profile, files, sourceSystemName: "Manabiya", sourceSystemCode: null },
    academicSessions: [{ ...bulk(session, 2), title: `${year}年度`, type: "schoolYear", startDate: `${year}-04-01`, endDate: `${year + 1}-03-31`, schoolYear: year }],
    orgs: [
      { ...bulk(district, 2), name: academy.name, type: "district", identifier: null, parentSourcedId: null },
      ...schoolRows.map((s, i) => ({ ...bulk(s.sourcedId!, i + 3), name: s.name, type: "school" as const, identifier: null, parentSourcedId: district })),
    ],
    courses,
    classes: rosterClasses,
    users,
    roles: people.map((p, i) => ({
      ...bulk(derivedId(`role:${p.sourcedId}`), i + 2), userSourcedId: p.sourcedId!, roleType: "primary" as const, role: p.role === "student" ? "student" as const : "teacher" as const,
      orgSourcedId: schoolSourced.get(p.schoolId!)!, beginDate: null, endDate: null,
    })),
    enrollments,
  };
  if (!since) return set;
  const changedAt = new Map<string, Date>([
    ...schoolRows.map((s) => [s.sourcedId!, s.updatedAt] as const),
    ...classes.map((c) => [c.sourcedId, c.updatedAt] as const),
    ...people.map((p) => [p.sourcedId!, p.student && p.student.updatedAt > p.updatedAt ? p.student.updatedAt : p.updatedAt] as const),
  ]);
  return deltaSince(set, since, changedAt, new Set(people.filter((p) => p.disabled).map((p) => p.sourcedId!)));
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
  const row = <T extends { sourcedId: string }>(r: T, owner: string, deleted = false): T =>
    ({ ...r, status: deleted ? "tobedeleted" : "active", dateLastModified: stamp(owner) });
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
    academicSessions: lines(set.academicSessions.filter((s) => sessions.has(s.sourcedId)).map((s) => row(s, firstClass))),
    orgs: lines(set.orgs.filter((o) => districts.has(o.sourcedId)).map((o) => row(o, schools[0]!.sourcedId)).concat(schools.map((s) => row(s, s.sourcedId)))),
    courses: lines(set.courses.filter((c) => courseOwner.has(c.sourcedId)).map((c) => row(c, courseOwner.get(c.sourcedId)!))),
    classes: lines(classes.map((c) => row(c, c.sourcedId))),
    users: lines(users.map((u) => row(u, u.sourcedId, disabled.has(u.sourcedId)))),
    roles: lines(set.roles.filter((r) => userIds.has(r.userSourcedId)).map((r) => row(r, r.userSourcedId, disabled.has(r.userSourcedId)))),
    enrollments: lines(set.enrollments.filter((e) => userIds.has(e.userSourcedId) || classIds.has(e.classSourcedId)).map((e) =>
      row(e, userIds.has(e.userSourcedId) ? e.userSourcedId : e.classSourcedId, disabled.has(e.userSourcedId)))),
  };
}

/** Stores a UUID v4 for every school, person and 組 of these schools that has none yet (one statement each). */
async function assignIds(schoolIds: string[]) {
  await db().$transaction([
    db().$executeRaw`UPDATE "schools" SET "sourced_id" = gen_random_uuid()::text WHERE "id" = ANY(${schoolIds}::uuid[]) AND "sourced_id" IS NULL`,
    db().$executeRaw`UPDATE "users" SET "sourced_id" = COALESCE("sourced_id", gen_random_uuid()::text), "user_master_identifier" = COALESCE("user_master_identifier", gen_random_uuid()::text)
      WHERE "school_id" = ANY(${schoolIds}::uuid[]) AND "role" IN ('student', 'teacher') AND ("sourced_id" IS NULL OR "user_master_identifier" IS NULL)`,
    // a 組 students carry that no roster class names yet: one row per (school, grade, 組)
    db().$executeRaw`INSERT INTO "roster_classes" ("school_id", "sourced_id", "title", "grade_code", "grade", "class_name")
      SELECT DISTINCT ON (sd."school_id", sd."grade", sd."class_name") sd."school_id", gen_random_uuid()::text, sd."grade" || '年' || sd."class_name" || '組',
        (CASE WHEN s."name" LIKE '%小学校%' THEN 'P' WHEN s."name" LIKE '%高等学校%' OR s."name" LIKE '%高校%' THEN 'H' ELSE 'J' END) || sd."grade", sd."grade", sd."class_name"
      FROM "student_details" sd JOIN "schools" s ON s."id" = sd."school_id" JOIN "users" u ON u."id" = sd."user_id"
      WHERE sd."school_id" = ANY(${schoolIds}::uuid[]) AND sd."grade" IS NOT NULL AND sd."class_name" IS NOT NULL AND NOT u."disabled"
        AND NOT EXISTS (SELECT 1 FROM "roster_classes" rc WHERE rc."school_id" = sd."school_id" AND rc."grade" = sd."grade" AND rc."class_name" = sd."class_name")`,
  ]);
}
