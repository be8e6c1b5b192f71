import { createHash, randomUUID } from "node:crypto";
import { derivedId } from "@/features/rostering/server/rules";
import { ROSTER_FILES } from "@/features/rostering/shared/oneroster-files";
import type { FileMode, RosterSet, RosterUser } from "@/features/rostering/shared/oneroster-model";

/** A homeroom of a school in a hand-built set. */
export interface ClassSpec {
  sourcedId: string;
  title: string;
  grade: string;
  classCode?: string;
  teacher?: string;
}
export interface PersonSpec {
  sourcedId: string;
  family: string;
  given: string;
  kanaFamily?: string;
  kanaGiven?: string;
  email?: string;
  homeClass?: string;
  number?: number;
  status?: "active" | "tobedeleted";
}
export interface SchoolSpec {
  sourcedId: string;
  name: string;
  classes: ClassSpec[];
  students: PersonSpec[];
  teachers: PersonSpec[];
}

const meta = (sourcedId: string, line: number, delta: boolean, status: "active" | "tobedeleted" = "active") => ({
  sourcedId,
  line,
  status: delta ? status : null,
  dateLastModified: delta ? "2026-11-27T00:00:00.000Z" : null,
});

function user(p: PersonSpec, line: number, delta: boolean, school: string): RosterUser {
  return {
    ...meta(p.sourcedId, line, delta, p.status),
    enabledUser: true,
    username: p.email ?? p.sourcedId,
    userIds: [],
    givenName: p.given,
    familyName: p.family,
    middleName: null,
    identifier: null,
    email: p.email ?? null,
    grades: [],
    userMasterIdentifier: null,
    preferredGivenName: p.given,
    preferredFamilyName: p.family,
    preferredMiddleName: null,
    primaryOrgSourcedId: school,
    kanaGivenName: p.kanaGiven ?? null,
    kanaFamilyName: p.kanaFamily ?? null,
    kanaMiddleName: null,
    homeClass: p.homeClass ?? null,
  };
}

/** A set as the reader would hand it over: bulk, or delta (rows carry status and dateLastModified). */
export function rosterSet(schools: SchoolSpec[], mode: "bulk" | "delta" = "bulk"): RosterSet {
  const delta = mode === "delta";
  const files = Object.fromEntries(ROSTER_FILES.map((f) => [f, "absent"])) as Record<
    (typeof ROSTER_FILES)[number],
    FileMode
  >;
  for (const f of ["academicSessions", "orgs", "courses", "classes", "users", "roles", "enrollments"] as const)
    files[f] = mode;
  const set: RosterSet = {
    manifest: { onerosterVersion: "1.2", files, sourceSystemName: null, sourceSystemCode: null },
    academicSessions: [
      {
        ...meta("9f1c2a4e-0000-4000-8000-000000002026", 2, delta),
        title: "2026年度",
        type: "schoolYear",
        startDate: "2026-04-01",
        endDate: "2027-03-31",
        schoolYear: 2026,
      },
    ],
    orgs: [],
    courses: [],
    classes: [],
    users: [],
    roles: [],
    enrollments: [],
  };
  for (const s of schools) {
    set.orgs.push({
      ...meta(s.sourcedId, set.orgs.length + 2, delta),
      name: s.name,
      type: "school",
      identifier: null,
      parentSourcedId: null,
    });
    for (const c of s.classes) {
      const course = derivedId(`course:${c.sourcedId}`);
      set.courses.push({
        ...meta(course, set.courses.length + 2, delta),
        schoolYearSourcedId: set.academicSessions[0]!.sourcedId,
        title: "2026年度ホームルーム",
        grades: [c.grade],
        orgSourcedId: s.sourcedId,
        subjects: [],
        subjectCodes: [],
      });
      set.classes.push({
        ...meta(c.sourcedId, set.classes.length + 2, delta),
        title: c.title,
        grades: [c.grade],
        courseSourcedId: course,
        classCode: c.classCode ?? null,
        classType: "homeroom",
        location: null,
        schoolSourcedId: s.sourcedId,
        termSourcedIds: [set.academicSessions[0]!.sourcedId],
        subjects: [],
        subjectCodes: [],
        specialNeeds: false,
      });
      if (c.teacher)
        set.enrollments.push({
          ...meta(randomUUID(), set.enrollments.length + 2, delta),
          classSourcedId: c.sourcedId,
          schoolSourcedId: s.sourcedId,
          userSourcedId: c.teacher,
          role: "teacher",
          primary: true,
          beginDate: null,
          endDate: null,
          shussekiNo: null,
          publicFlg: true,
        });
    }
    for (const [role, people] of [
      ["student", s.students],
      ["teacher", s.teachers],
    ] as const) {
      for (const p of people) {
        set.users.push(user(p, set.users.length + 2, delta, s.sourcedId));
        if (p.status === "tobedeleted") continue;
        set.roles.push({
          ...meta(randomUUID(), set.roles.length + 2, delta),
          userSourcedId: p.sourcedId,
          roleType: "primary",
          role,
          orgSourcedId: s.sourcedId,
          beginDate: null,
          endDate: null,
        });
        if (role === "student" && p.homeClass) {
          set.enrollments.push({
            ...meta(randomUUID(), set.enrollments.length + 2, delta),
            classSourcedId: p.homeClass,
            schoolSourcedId: s.sourcedId,
            userSourcedId: p.sourcedId,
            role: "student",
            primary: false,
            beginDate: null,
            endDate: null,
            shussekiNo: p.number ?? null,
            publicFlg: true,
          });
        }
      }
    }
  }
  return set;
}

/** n students of one homeroom: ids `${prefix}-s${i}`, 番号 1…n, readings in katakana. */
export function students(prefix: string, homeClass: string, n: number): PersonSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    sourcedId: `${prefix}-s${i + 1}`,
    family: "山田",
    given: `太郎${i + 1}`,
    kanaFamily: "ヤマダ",
    kanaGiven: "タロウ",
    homeClass,
    number: i + 1,
  }));
}

/** A generated set made importable once more in this database: ids, userMasterIdentifiers and e-mails unique to the run, one 組 name per class. */
export function ownSet(set: RosterSet, tag: string): RosterSet {
  const run = createHash("sha256").update(tag).digest("hex").slice(0, 12);
  const copy = JSON.parse(JSON.stringify(set).replaceAll("-8000-00000000abcd", `-8000-${run}`)) as RosterSet;
  copy.classes.forEach((c, i) => (c.title = `${c.title}${i + 1}組`));
  copy.users.forEach((u, i) => (u.email = u.email === null ? null : `u${i}-${run}@school.example`));
  return copy;
}

/** A city's schools (fresh random ids): `count` 中学校 of `classes` homerooms of `size` students, each homeroom with its 担任. */
export function citySchools(count: number, classes = 25, size = 40): SchoolSpec[] {
  return Array.from({ length: count }, (_, s) => {
    const homerooms = Array.from({ length: classes }, (_, c) => ({
      sourcedId: randomUUID(),
      title: `${(c % 3) + 1}年${Math.floor(c / 3) + 1}組`,
      grade: `J${(c % 3) + 1}`,
      teacher: randomUUID(),
    }));
    return {
      sourcedId: randomUUID(),
      name: `ベンチ市立第${s + 1}中学校`,
      classes: homerooms,
      teachers: homerooms.map((c, i) => ({
        sourcedId: c.teacher,
        family: "先生",
        given: `${s}-${i}`,
        kanaFamily: "センセイ",
        kanaGiven: "イチ",
      })),
      students: homerooms.flatMap((c) =>
        Array.from({ length: size }, (_, n) => ({
          sourcedId: randomUUID(),
          family: "生徒",
          given: `${s}-${n}`,
          kanaFamily: "セイト",
          kanaGiven: "ハナコ",
          homeClass: c.sourcedId,
          number: n + 1,
        })),
      ),
    };
  });
}
