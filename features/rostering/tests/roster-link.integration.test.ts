import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { applyRosterImport } from "@/features/rostering/server/commands";
import { planRosterImport } from "@/features/rostering/server/plan";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { type SchoolSpec, rosterSet } from "../../../tests/support/roster-fixture";

/**
 * #22: a school that used the product by hand before adopting OneRoster. The first import links the
 * hand-added accounts of the same school and role by e-mail (same id, password and answers), and
 * refuses every other claim on an existing account: another school's, one already carrying a
 * sourcedId, a teacher named by a student row.
 */
beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
});
afterAll(async () => {
  await db().$disconnect();
});

const zero = { create: 0, update: 0, move: 0, disable: 0, link: 0 };
const PASSWORD = "a-long-password-2026";

async function handSchool() {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `L${tag}`, nameKana: "える" });
  const school = await createSchool(db(), { academyId: academy.id, name: `東中学校${tag}`, nameKana: "ひがし" });
  const student = await createUser(db(), {
    role: "student",
    email: `hana-${tag}@school.example`,
    schoolId: school.id,
    password: PASSWORD,
    name: "山田 花",
    student: { grade: 1, className: "1", number: 7 },
  });
  const teacher = await createUser(db(), {
    role: "teacher",
    email: `sato-${tag}@school.example`,
    schoolId: school.id,
    password: PASSWORD,
    name: "佐藤先生",
  });
  const activity = await createActivityFromTemplate(db(), {
    templateId: "reflection-weekly",
    schoolId: school.id,
    mode: "self",
  });
  const scene = await db().activityScene.findFirstOrThrow({ where: { activityId: activity.id }, select: { id: true } });
  await createResponse(db(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId: student.id,
    answer: { value: 3 },
    scenePosition: 0,
  });
  const spec: SchoolSpec = {
    sourcedId: `${tag}-east`,
    name: `東中学校${tag}`,
    classes: [{ sourcedId: `${tag}-e11`, title: "1年1組", grade: "J1", teacher: `${tag}-t1` }],
    students: [
      {
        sourcedId: `${tag}-s1`,
        family: "山田",
        given: "花子",
        kanaFamily: "ヤマダ",
        kanaGiven: "ハナコ",
        email: `Hana-${tag}@school.example`,
        homeClass: `${tag}-e11`,
        number: 3,
      },
      {
        sourcedId: `${tag}-s2`,
        family: "田中",
        given: "一郎",
        kanaFamily: "タナカ",
        kanaGiven: "イチロウ",
        homeClass: `${tag}-e11`,
        number: 4,
      },
    ],
    teachers: [
      {
        sourcedId: `${tag}-t1`,
        family: "佐藤",
        given: "花子",
        kanaFamily: "サトウ",
        kanaGiven: "ハナコ",
        email: `sato-${tag}@school.example`,
      },
    ],
  };
  return { tag, academy, school, student, teacher, spec };
}

const snapshot = async (academyId: string) =>
  JSON.stringify(
    await db().user.findMany({
      where: { school: { academyId } },
      orderBy: { id: "asc" },
      select: { id: true, sourcedId: true, schoolId: true, name: true, email: true, disabled: true, student: true },
    }),
  );

describe("OneRoster import links hand-added accounts", () => {
  it("links a hand-added student and teacher of the same school by e-mail: same id, password and answers, seat and name from the set; the same set again changes nothing", async () => {
    const { tag, academy, school, student, teacher, spec } = await handSchool();
    const before = await db().user.findUniqueOrThrow({ where: { id: student.id }, select: { passwordHash: true } });
    const dry = await planRosterImport(academy.id, rosterSet([spec]));
    expect(dry.problems).toEqual([]);
    expect(dry.schools[0]).toMatchObject({ students: { ...zero, create: 1, link: 1 }, teachers: { ...zero, link: 1 } });
    expect(dry.schools[0]!.preview.students.rows.find((r) => r.action === "link")).toMatchObject({
      sourcedId: `${tag}-s1`,
      name: "山田 花子",
      grade: 1,
      className: "1",
      number: 3,
    });
    expect(await db().user.findUniqueOrThrow({ where: { id: student.id }, select: { sourcedId: true } })).toEqual({
      sourcedId: null,
    }); // dry run

    const applied = await applyRosterImport(academy.id, rosterSet([spec]), { via: "cli" });
    expect(applied.applied).toBe(true);
    const linked = await db().user.findUniqueOrThrow({
      where: { id: student.id },
      include: { student: true, responses: true },
    });
    expect(linked).toMatchObject({
      sourcedId: `${tag}-s1`,
      schoolId: school.id,
      name: "山田 花子",
      nameKana: "やまだ はなこ",
      passwordHash: before.passwordHash,
      disabled: false,
    });
    expect(linked.student).toMatchObject({ grade: 1, className: "1", number: 3 });
    expect(linked.responses).toHaveLength(1);
    expect(await db().user.findUniqueOrThrow({ where: { id: teacher.id }, select: { sourcedId: true } })).toEqual({
      sourcedId: `${tag}-t1`,
    });
    expect(await db().user.count({ where: { schoolId: school.id } })).toBe(3);
    const klass = await db().rosterClass.findFirstOrThrow({
      where: { schoolId: school.id },
      select: { homeroomTeacherId: true },
    });
    expect(klass.homeroomTeacherId).toBe(teacher.id);
    const audits = await db().auditLog.findMany({
      where: { academyId: academy.id, action: "roster.link" },
      select: { targetId: true, meta: true },
      orderBy: { id: "asc" },
    });
    expect(audits.map((a) => a.targetId).sort()).toEqual([student.id, teacher.id].sort());

    const again = await planRosterImport(academy.id, rosterSet([spec]));
    expect(again.problems).toEqual([]);
    expect([again.schools[0]!.students, again.schools[0]!.teachers]).toEqual([zero, zero]);
  }, 120_000);

  it("refuses to link across schools, an account that already has another sourcedId, and a teacher named by a student row; nothing changes", async () => {
    const { tag, academy, school, spec } = await handSchool();
    const west = await createSchool(db(), { academyId: academy.id, name: `西中学校${tag}`, nameKana: "にし" });
    await createUser(db(), {
      role: "student",
      email: `west-${tag}@school.example`,
      schoolId: west.id,
      password: PASSWORD,
    });
    const sourced = await createUser(db(), {
      role: "student",
      email: `old-${tag}@school.example`,
      schoolId: school.id,
      password: PASSWORD,
    });
    await db().user.update({ where: { id: sourced.id }, data: { sourcedId: `${tag}-older` } });
    const before = await snapshot(academy.id);

    const crafted: SchoolSpec = {
      ...spec,
      students: [
        ...spec.students,
        {
          sourcedId: `${tag}-s3`,
          family: "西",
          given: "太郎",
          email: `west-${tag}@school.example`,
          homeClass: `${tag}-e11`,
          number: 5,
        },
        {
          sourcedId: `${tag}-s4`,
          family: "古",
          given: "太郎",
          email: `old-${tag}@school.example`,
          homeClass: `${tag}-e11`,
          number: 6,
        },
        {
          sourcedId: `${tag}-s5`,
          family: "佐藤",
          given: "花子",
          email: `sato-${tag}@school.example`,
          homeClass: `${tag}-e11`,
          number: 8,
        },
      ],
      teachers: [],
    };
    const plan = await applyRosterImport(academy.id, rosterSet([crafted]));
    expect(plan.applied).toBe(false);
    expect(plan.problems.map((p) => [p.file, p.line, p.column, p.code])).toEqual([
      ["users.csv", 4, "email", "emailTaken"],
      ["users.csv", 5, "email", "emailTaken"],
      ["users.csv", 6, "email", "linkRoleMismatch"],
    ]);
    expect(await snapshot(academy.id)).toEqual(before);

    // another academy's set with the same school name and e-mails claims nobody
    const other = await createAcademy(db(), { name: `O${tag}`, nameKana: "おー" });
    const refused = await planRosterImport(other.id, rosterSet([spec]));
    expect(refused.problems.map((p) => p.code)).toEqual(["emailTaken", "emailTaken"]);
  }, 120_000);
});
