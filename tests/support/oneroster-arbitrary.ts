/** fast-check generators of valid OneRoster sets (one school, its 年度, homerooms, subject classes, teachers and students). */
import fc from "fast-check";
import { ROSTER_FILES } from "@/features/rostering/shared/oneroster-files";
import type { FileMode, RosterSet } from "@/features/rostering/shared/oneroster-model";
import { startsLikeFormula } from "@/platform/names/person-name";

/** Characters that stress the CSV: commas, quotes, CR/LF, spaces, kanji, kana. */
const CHARS = [...'あいうアイウ学校組花子, "\r\n\tabcXYZ 09ー・〜'];
export const text = fc
  .string({ unit: fc.constantFrom(...CHARS), minLength: 1, maxLength: 10 })
  .filter((s) => s !== "NULL" && !startsLikeFormula(s)); // a name starting with a tab or CR is refused
const optText = fc.option(text, { nil: null });
const kana = fc.option(fc.string({ unit: fc.constantFrom(..."あいうがぱアイウガパー"), minLength: 1, maxLength: 6 }), {
  nil: null,
});
const grade = fc.constantFrom("P1", "P6", "J1", "J2", "J3", "H1", "E3");
const date = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const optDate = fc.option(date, { nil: null });
const listItem = fc.string({ unit: fc.constantFrom(..."abcJ0123国語"), minLength: 1, maxLength: 5 });

let counter = 0;
/** A fresh lower-case UUID (v4 shape) per call, numbered within the set (the reader lower-cases ids). */
const uuid = () => `${(++counter).toString(16).padStart(8, "0")}-0000-4000-8000-00000000abcd`;

const meta = (line: number) => ({ sourcedId: uuid(), status: null, dateLastModified: null, line });

export function manifestOf(): RosterSet["manifest"] {
  const bulk = new Set(["academicSessions", "orgs", "courses", "classes", "users", "roles", "enrollments"]);
  const files = Object.fromEntries(ROSTER_FILES.map((f) => [f, bulk.has(f) ? "bulk" : "absent"])) as Record<
    (typeof ROSTER_FILES)[number],
    FileMode
  >;
  return { onerosterVersion: "1.2", files, sourceSystemName: "校務", sourceSystemCode: null };
}

export const rosterSet: fc.Arbitrary<RosterSet> = fc
  .record({
    year: fc.integer({ min: 2000, max: 2098 }),
    names: fc.tuple(text, text),
    homerooms: fc.array(
      fc.record({
        title: text,
        grade,
        code: fc.option(listItem, { nil: null }),
        location: optText,
        needs: fc.option(fc.boolean(), { nil: null }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    teachers: fc.array(fc.record({ given: text, family: text, kanaGiven: kana, email: optText }), {
      minLength: 1,
      maxLength: 3,
    }),
    students: fc.array(
      fc.record({
        given: text,
        family: text,
        middle: optText,
        kanaGiven: kana,
        kanaFamily: kana,
        room: fc.nat(),
        no: fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }),
        begin: optDate,
        ids: fc.array(listItem, { maxLength: 2 }),
      }),
      { maxLength: 8 },
    ),
    subjects: fc.array(listItem, { maxLength: 2 }),
    principal: fc.boolean(),
    scheduled: fc.array(
      fc.record({
        title: text,
        grade,
        location: optText,
        code: fc.constantFrom("J010", "J030", "P020"),
        subject: fc.constantFrom("国語", "数学", "理科"),
        members: fc.array(fc.nat(), { maxLength: 4 }),
      }),
      { maxLength: 2 },
    ),
  })
  .map((g) => {
    counter = 0;
    const session = {
      ...meta(0),
      title: `${g.year}年度`,
      type: "schoolYear",
      startDate: `${g.year}-04-01`,
      endDate: `${g.year + 1}-03-31`,
      schoolYear: g.year,
    };
    const district = {
      ...meta(0),
      name: g.names[0],
      type: "district" as const,
      identifier: null,
      parentSourcedId: null,
    };
    const school = {
      ...meta(0),
      name: g.names[1],
      type: "school" as const,
      identifier: "C113210000019",
      parentSourcedId: district.sourcedId,
    };
    const courses = g.homerooms.map((h) => ({
      ...meta(0),
      schoolYearSourcedId: session.sourcedId,
      title: `${g.year}年度${h.title}`,
      grades: [h.grade],
      orgSourcedId: school.sourcedId,
      subjects: g.subjects,
      subjectCodes: [],
    }));
    const classes = g.homerooms.map((h, i) => ({
      ...meta(0),
      title: h.title,
      grades: [h.grade],
      courseSourcedId: courses[i]!.sourcedId,
      classCode: h.code,
      classType: "homeroom" as const,
      location: h.location,
      schoolSourcedId: school.sourcedId,
      termSourcedIds: [session.sourcedId],
      subjects: g.subjects,
      subjectCodes: [],
      specialNeeds: h.needs,
    }));
    // subject (scheduled) classes with their own course; some students and the first teacher enrolled
    const subjectCourses = g.scheduled.map((c) => ({
      ...meta(0),
      schoolYearSourcedId: session.sourcedId,
      title: `${g.year}年度${c.title}`,
      grades: [c.grade],
      orgSourcedId: school.sourcedId,
      subjects: [c.subject],
      subjectCodes: [c.code],
    }));
    const subjectClasses = g.scheduled.map((c, i) => ({
      ...meta(0),
      title: c.title,
      grades: [c.grade],
      courseSourcedId: subjectCourses[i]!.sourcedId,
      classCode: null,
      classType: "scheduled" as const,
      location: c.location,
      schoolSourcedId: school.sourcedId,
      termSourcedIds: [session.sourcedId],
      subjects: [c.subject],
      subjectCodes: [c.code],
      specialNeeds: null,
    }));
    const person = (
      p: {
        given: string;
        family: string;
        middle?: string | null;
        kanaGiven: string | null;
        kanaFamily?: string | null;
      },
      i: number,
    ) => ({
      ...meta(0),
      enabledUser: true,
      username: `u${i}@example.jp`,
      userIds: [] as string[],
      givenName: p.given,
      familyName: p.family,
      middleName: p.middle ?? null,
      identifier: null,
      email: null,
      grades: [] as string[],
      userMasterIdentifier: uuid(),
      preferredGivenName: p.given,
      preferredFamilyName: p.family,
      preferredMiddleName: null,
      primaryOrgSourcedId: school.sourcedId,
      kanaGivenName: p.kanaGiven,
      kanaFamilyName: p.kanaFamily ?? null,
      kanaMiddleName: null,
      homeClass: null as string | null,
    });
    const teachers = g.teachers.map((t, i) => ({
      ...person(t, i),
      email: t.email,
      homeClass: classes[i % classes.length]!.sourcedId,
    }));
    const taken = new Set<string>();
    const students = g.students.map((s, i) => {
      const room = classes[s.room % classes.length]!;
      const no = s.no !== null && !taken.has(`${room.sourcedId} ${s.no}`) ? s.no : null;
      if (no !== null) taken.add(`${room.sourcedId} ${no}`);
      return {
        user: {
          ...person(s, 100 + i),
          userIds: s.ids.map((x) => `{koumu:${x}}`),
          grades: room.grades,
          homeClass: room.sourcedId,
        },
        room,
        no,
        begin: s.begin,
      };
    });
    const users = [...teachers, ...students.map((s) => s.user)];
    const role = (
      userSourcedId: string,
      roleType: "primary" | "secondary",
      r: "teacher" | "student" | "principal",
      beginDate: string | null = null,
    ) => ({ ...meta(0), userSourcedId, roleType, role: r, orgSourcedId: school.sourcedId, beginDate, endDate: null });
    const roles = [
      ...teachers.map((t) => role(t.sourcedId, "primary", "teacher")),
      ...(g.principal ? [role(teachers[0]!.sourcedId, "secondary", "principal")] : []),
      ...students.map((s) => role(s.user.sourcedId, "primary", "student", s.begin)),
    ];
    const enrollment = (
      classSourcedId: string,
      userSourcedId: string,
      r: "teacher" | "student",
      primary: boolean,
      shussekiNo: number | null,
      beginDate: string | null,
    ) => ({
      ...meta(0),
      classSourcedId,
      schoolSourcedId: school.sourcedId,
      userSourcedId,
      role: r,
      primary,
      beginDate,
      endDate: null,
      shussekiNo,
      publicFlg: true,
    });
    const enrollments = [
      ...teachers.map((t, i) =>
        enrollment(classes[i % classes.length]!.sourcedId, t.sourcedId, "teacher", true, null, null),
      ),
      ...students.map((s) => enrollment(s.room.sourcedId, s.user.sourcedId, "student", false, s.no, s.begin)),
      ...subjectClasses.flatMap((c, i) => [
        enrollment(c.sourcedId, teachers[0]!.sourcedId, "teacher", true, null, null),
        ...[...new Set(g.scheduled[i]!.members.filter((m) => m < students.length))].map((m) =>
          enrollment(c.sourcedId, students[m]!.user.sourcedId, "student", false, null, null),
        ),
      ]),
    ];
    return {
      manifest: manifestOf(),
      academicSessions: [session],
      orgs: [district, school],
      courses: [...courses, ...subjectCourses],
      classes: [...classes, ...subjectClasses],
      users,
      roles,
      enrollments,
    };
  });
