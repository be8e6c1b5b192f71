import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { applyRosterImport } from "@/features/rostering/server/commands";
import { planRosterImport } from "@/features/rostering/server/plan";
import { PREVIEW_ROWS } from "@/features/rostering/shared/types";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { type SchoolSpec, rosterSet, students } from "../../../tests/support/roster-fixture";

/**
 * #22: a OneRoster set into an academy. Bulk creates the school's students with
 * 年・組・番号 and readings; the same set again changes nothing; a renamed class moves
 * nobody; a delta disables (never deletes) and transfers between schools keeping the
 * history with a new card; an e-mail of someone else is refused; any problem: nothing changed.
 */
beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
});
afterAll(async () => {
  await db().$disconnect();
});

/** An answer of `userId` in a new activity of their school. */
async function answer(userId: string, schoolId: string) {
  const activity = await createActivityFromTemplate(db(), { templateId: "reflection-weekly", schoolId, mode: "self" });
  const scene = await db().activityScene.findFirstOrThrow({ where: { activityId: activity.id }, select: { id: true } });
  await createResponse(db(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId,
    answer: { value: 3 },
    scenePosition: 0,
  });
}

const zero = { create: 0, update: 0, move: 0, disable: 0, link: 0 };

async function academyWithSets() {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `R${tag}`, nameKana: "あーる" });
  const north: SchoolSpec = {
    sourcedId: `${tag}-north`,
    name: `北中学校${tag}`,
    classes: [
      { sourcedId: `${tag}-n11`, title: "1年1組", grade: "J1", classCode: "0101", teacher: `${tag}-t1` },
      { sourcedId: `${tag}-n12`, title: "1年2組", grade: "J1" },
    ],
    students: [...students(`${tag}-n11`, `${tag}-n11`, 3), ...students(`${tag}-n12`, `${tag}-n12`, 2)],
    teachers: [
      {
        sourcedId: `${tag}-t1`,
        family: "佐藤",
        given: "花子",
        kanaFamily: "サトウ",
        kanaGiven: "ハナコ",
        email: `t1-${tag}@school.example`,
      },
    ],
  };
  const south: SchoolSpec = {
    sourcedId: `${tag}-south`,
    name: `南中学校${tag}`,
    classes: [{ sourcedId: `${tag}-s21`, title: "2年1組", grade: "J2" }],
    students: students(`${tag}-s21`, `${tag}-s21`, 2),
    teachers: [],
  };
  return { tag, academy, north, south };
}

const rowCounts = async (academyId: string) => ({
  users: await db().user.count({ where: { school: { academyId } } }),
  disabled: await db().user.count({ where: { school: { academyId }, disabled: true } }),
  codes: await db().signinCode.count({ where: { user: { school: { academyId } } } }),
  classes: await db().rosterClass.count({ where: { school: { academyId } } }),
  schools: await db().school.count({ where: { academyId } }),
  seats: JSON.stringify(
    await db().studentDetail.findMany({
      where: { user: { school: { academyId } } },
      orderBy: { userId: "asc" },
      select: { userId: true, grade: true, className: true, number: true },
    }),
  ),
});

describe("OneRoster import", () => {
  it("creates the schools, 組 and students with 年・組・番号, readings in hiragana and a card; the same set again changes nothing", async () => {
    const { tag, academy, north, south } = await academyWithSets();
    const set = rosterSet([north, south]);
    const dry = await planRosterImport(academy.id, set);
    expect(dry.problems).toEqual([]);
    expect(dry.schools.map((s) => [s.name, s.students.create, s.teachers.create, s.classes.create])).toEqual([
      [north.name, 5, 1, 2],
      [south.name, 2, 0, 1],
    ]);
    expect(await db().school.count({ where: { academyId: academy.id } })).toBe(0); // a dry run writes nothing

    const progress: number[] = [];
    const applied = await applyRosterImport(academy.id, set, { onProgress: (p) => progress.push(p.done) });
    expect(applied.applied).toBe(true);
    expect(progress).toEqual([1, 2]);
    const kid = await db().user.findUniqueOrThrow({
      where: { sourcedId: `${tag}-n12-s2` },
      include: { student: true, signinCodes: true, school: true },
    });
    expect(kid).toMatchObject({
      role: "student",
      name: "山田 太郎2",
      nameKana: "やまだ たろう",
      student: { grade: 1, className: "2", number: 2 },
    });
    expect(kid.school?.name).toBe(north.name);
    expect(kid.signinCodes.filter((c) => c.revokedAt === null)).toHaveLength(1);
    const homeroom = await db().rosterClass.findFirstOrThrow({
      where: { sourcedId: `${tag}-n11` },
      include: { homeroomTeacher: true },
    });
    expect(homeroom).toMatchObject({ gradeCode: "J1", grade: 1, className: "1", classCode: "0101" });
    expect(homeroom.homeroomTeacher?.email).toBe(`t1-${tag}@school.example`);
    expect(await db().auditLog.count({ where: { academyId: academy.id, action: "roster.import" } })).toBe(2);

    const before = await rowCounts(academy.id);
    const again = await applyRosterImport(academy.id, rosterSet([north, south]));
    expect(again.problems).toEqual([]);
    for (const s of again.schools) expect([s.students, s.teachers, s.classes]).toEqual([zero, zero, zero]);
    expect(await rowCounts(academy.id)).toEqual(before);
    expect(await db().auditLog.count({ where: { academyId: academy.id, action: "roster.import" } })).toBe(2);
  }, 120_000);

  it("a school of 250 new students: the plan lists the first PREVIEW_ROWS of them and counts them all", async () => {
    const { tag, academy } = await academyWithSets();
    const big: SchoolSpec = {
      sourcedId: `${tag}-big`,
      name: `大中学校${tag}`,
      teachers: [],
      classes: [
        { sourcedId: `${tag}-b11`, title: "1年1組", grade: "J1" },
        { sourcedId: `${tag}-b12`, title: "1年2組", grade: "J1" },
      ],
      students: [...students(`${tag}-b11`, `${tag}-b11`, 125), ...students(`${tag}-b12`, `${tag}-b12`, 125)],
    };
    const [school] = (await planRosterImport(academy.id, rosterSet([big]))).schools;
    expect(school!.students.create).toBe(250);
    expect(school!.preview.students.total).toBe(250);
    expect(school!.preview.students.rows).toHaveLength(PREVIEW_ROWS);
    expect(school!.preview.classes).toMatchObject({ total: 2, rows: [{ action: "create" }, { action: "create" }] });
  }, 120_000);

  it("a renamed class moves nobody: the students keep their id, seat number and answers", async () => {
    const { tag, academy, north } = await academyWithSets();
    await applyRosterImport(academy.id, rosterSet([north]));
    const kid = await db().user.findUniqueOrThrow({
      where: { sourcedId: `${tag}-n11-s1` },
      select: { id: true, schoolId: true },
    });
    await answer(kid.id, kid.schoolId!);

    const renamed = {
      ...north,
      classes: north.classes.map((c) => (c.sourcedId === `${tag}-n11` ? { ...c, title: "1年A組" } : c)),
    };
    const plan = await applyRosterImport(academy.id, rosterSet([renamed]));
    expect(plan.schools[0]).toMatchObject({
      classes: { create: 0, update: 1, move: 0, disable: 0 },
      students: { create: 0, move: 0, disable: 0, update: 3 },
    });
    const after = await db().user.findUniqueOrThrow({
      where: { sourcedId: `${tag}-n11-s1` },
      include: { student: true, responses: true },
    });
    expect(after.id).toBe(kid.id);
    expect(after.student).toMatchObject({ grade: 1, className: "A", number: 1 });
    expect(after.responses).toHaveLength(1);
  }, 120_000);

  it("a delta disables a tobedeleted student (answers kept) and moves a student to the other school with a new card", async () => {
    const { tag, academy, north, south } = await academyWithSets();
    await applyRosterImport(academy.id, rosterSet([north, south]));
    const leaver = await db().user.findUniqueOrThrow({
      where: { sourcedId: `${tag}-n11-s3` },
      select: { id: true, schoolId: true },
    });
    await answer(leaver.id, leaver.schoolId!);
    const mover = await db().user.findUniqueOrThrow({
      where: { sourcedId: `${tag}-n12-s1` },
      include: { signinCodes: true },
    });
    const oldCode = mover.signinCodes[0]!;
    await answer(mover.id, mover.schoolId!);

    const delta = rosterSet(
      [
        { ...north, classes: [], teachers: [], students: [{ ...north.students[2]!, status: "tobedeleted" }] },
        { ...south, classes: [], students: [{ ...north.students[3]!, homeClass: `${tag}-s21`, number: 3 }] },
      ],
      "delta",
    );
    delta.orgs = []; // a delta names schools by reference only
    const plan = await applyRosterImport(academy.id, delta);
    expect(plan.problems).toEqual([]);
    expect(plan.schools.find((s) => s.sourcedId === north.sourcedId)?.students).toEqual({ ...zero, disable: 1 });
    expect(plan.schools.find((s) => s.sourcedId === south.sourcedId)?.students).toEqual({ ...zero, move: 1 });

    const gone = await db().user.findUniqueOrThrow({ where: { id: leaver.id }, include: { responses: true } });
    expect(gone.disabled).toBe(true);
    expect(gone.responses).toHaveLength(1);
    const moved = await db().user.findUniqueOrThrow({
      where: { id: mover.id },
      include: { signinCodes: true, responses: true, student: true, school: true },
    });
    expect(moved.school?.name).toBe(south.name);
    expect(moved.student).toMatchObject({ grade: 2, className: "1", number: 3 });
    expect(moved.responses).toHaveLength(1);
    expect(moved.signinCodes.find((c) => c.id === oldCode.id)?.revokedAt).not.toBeNull();
    expect(moved.signinCodes.filter((c) => c.revokedAt === null)).toHaveLength(1);
    expect(moved.sessionVersion).toBeGreaterThan(mover.sessionVersion);
    // the untouched students of north stay as they were
    expect(await db().user.count({ where: { schoolId: leaver.schoolId!, disabled: false, role: "student" } })).toBe(3);
  }, 120_000);

  it("refuses an e-mail that belongs to another user, and another academy's people; any problem changes nothing", async () => {
    const { tag, academy, north } = await academyWithSets();
    const elsewhere = await createAcademy(db(), { name: `X${tag}`, nameKana: "えっくす" });
    const theirSchool = await createSchool(db(), { academyId: elsewhere.id, name: `X${tag}`, nameKana: "えっくす" });
    await createUser(db(), {
      role: "teacher",
      email: `victim-${tag}@school.example`,
      schoolId: theirSchool.id,
      password: "a-long-password-2026",
    });
    await applyRosterImport(academy.id, rosterSet([north]));
    const before = await rowCounts(academy.id);
    const audits = (await db().auditLog.aggregate({ _max: { id: true } }))._max.id ?? 0n;

    const stolen = {
      ...north,
      students: north.students.map((s, i) => (i === 4 ? { ...s, email: `Victim-${tag}@school.example` } : s)),
      classes: [...north.classes, { sourcedId: `${tag}-n13`, title: "1年3組", grade: "J1" }],
    };
    stolen.students.push(...students(`${tag}-n13`, `${tag}-n13`, 2));
    const plan = await applyRosterImport(academy.id, rosterSet([stolen]));
    expect(plan.applied).toBe(false);
    expect(plan.problems).toEqual([
      expect.objectContaining({ file: "users.csv", line: 6, column: "email", code: "emailTaken" }),
    ]);
    expect(await rowCounts(academy.id)).toEqual(before);
    expect(
      await db().auditLog.findMany({
        where: { academyId: academy.id, id: { gt: audits } },
        select: { action: true, meta: true },
      }),
    ).toEqual([{ action: "roster.apply", meta: { via: "web", schools: 1, problems: 1, applied: false } }]);
    const victim = await db().user.findUniqueOrThrow({ where: { email: `victim-${tag}@school.example` } });
    expect(victim).toMatchObject({ sourcedId: null, schoolId: theirSchool.id });

    // another academy's set naming this academy's people by their sourcedIds claims nobody
    const claim = await applyRosterImport(
      elsewhere.id,
      rosterSet([{ ...north, sourcedId: `${tag}-claim`, name: `X${tag}` }]),
    );
    expect(claim.applied).toBe(false);
    expect(claim.problems.map((p) => p.code)).toEqual(
      Array(north.students.length + north.teachers.length).fill("idUnusable"),
    );
    expect(await rowCounts(academy.id)).toEqual(before);
    expect(await db().user.count({ where: { school: { academyId: elsewhere.id } } })).toBe(1);
  }, 120_000);

  it("refuses a 番号 held by a student the roster does not know, a userMasterIdentifier someone else holds, and a school sourcedId of another academy", async () => {
    const { tag, academy, north } = await academyWithSets();
    await applyRosterImport(academy.id, rosterSet([north]));
    const school = await db().school.findFirstOrThrow({ where: { academyId: academy.id }, select: { id: true } });
    await createUser(db(), {
      role: "student",
      schoolId: school.id,
      name: "手入力 一郎",
      student: { grade: 1, className: "2", number: 3 },
    });
    const grown = { ...north, students: [...north.students, ...students(`${tag}-n12x`, `${tag}-n12`, 3).slice(2)] };
    const plan = await planRosterImport(academy.id, rosterSet([grown]));
    expect(plan.problems).toEqual([
      expect.objectContaining({ file: "enrollments.csv", column: "metadata.jp.ShussekiNo", code: "seatTaken" }),
    ]);

    // a userMasterIdentifier someone else holds (unique in the database): a problem, not a failed write halfway
    const holder = await db().user.findUniqueOrThrow({ where: { sourcedId: `${tag}-n11-s1` }, select: { id: true } });
    await db().user.update({ where: { id: holder.id }, data: { userMasterIdentifier: `${tag}-umi` } });
    const taken = rosterSet([north]);
    taken.users.find((u) => u.sourcedId === `${tag}-n12-s1`)!.userMasterIdentifier = `${tag}-umi`;
    const umiPlan = await applyRosterImport(academy.id, taken);
    expect(umiPlan.problems).toEqual([
      expect.objectContaining({ file: "users.csv", column: "userMasterIdentifier", code: "umiTaken" }),
    ]);
    expect(umiPlan.applied).toBe(false);

    const other = await createAcademy(db(), { name: `O${tag}`, nameKana: "おー" });
    const refused = await applyRosterImport(
      other.id,
      rosterSet([{ ...north, students: [], teachers: [], classes: [] }]),
    );
    expect(refused.problems).toEqual([
      expect.objectContaining({ file: "orgs.csv", line: 2, column: "sourcedId", code: "schoolOfOtherAcademy" }),
    ]);
    expect(await db().school.count({ where: { academyId: other.id } })).toBe(0);
  }, 120_000);
});

describe("OneRoster users-only delta", () => {
  it("a one-row users.csv delta renames a student, changes the reading and moves them to another 組 of the same school", async () => {
    const { tag, academy, north } = await academyWithSets();
    expect((await applyRosterImport(academy.id, rosterSet([north]))).applied).toBe(true);
    const kid = await db().user.findUniqueOrThrow({ where: { sourcedId: `${tag}-n11-s1` }, select: { id: true } });

    const delta = rosterSet(
      [
        {
          ...north,
          classes: [],
          teachers: [],
          students: [{ ...north.students[0]!, family: "鈴木", kanaFamily: "スズキ", homeClass: `${tag}-n12` }],
        },
      ],
      "delta",
    );
    for (const f of ["academicSessions", "orgs", "courses", "classes", "roles", "enrollments"] as const) {
      delta.manifest.files[f] = "absent";
      delta[f] = [];
    }
    const plan = await applyRosterImport(academy.id, delta);
    expect(plan.problems).toEqual([]);
    expect(plan.schools.map((s) => [s.sourcedId, s.students])).toEqual([[north.sourcedId, { ...zero, update: 1 }]]);
    const after = await db().user.findUniqueOrThrow({ where: { id: kid.id }, include: { student: true } });
    expect(after).toMatchObject({
      name: "鈴木 太郎1",
      nameKana: "すずき たろう",
      student: { grade: 1, className: "2", number: null },
    });
  }, 120_000);
});

describe("OneRoster dry run: no oracle", () => {
  it("an e-mail, a userMasterIdentifier or a sourcedId held in this academy or another gets the same answer: it cannot be used", async () => {
    const { tag, academy, north } = await academyWithSets();
    await applyRosterImport(academy.id, rosterSet([north]));
    const sibling = await createSchool(db(), { academyId: academy.id, name: `西${tag}`, nameKana: "にし" });
    await createUser(db(), {
      role: "teacher",
      email: `here-${tag}@school.example`,
      schoolId: sibling.id,
      password: "a-long-password-2026",
    });
    const elsewhere = await createAcademy(db(), { name: `E${tag}`, nameKana: "いー" });
    const theirs = {
      ...north,
      sourcedId: `${tag}-theirs`,
      name: `E${tag}`,
      classes: [],
      students: [],
      teachers: [{ sourcedId: `${tag}-their-t`, family: "他", given: "人", email: `there-${tag}@school.example` }],
    };
    expect((await applyRosterImport(elsewhere.id, rosterSet([theirs]))).applied).toBe(true);
    await db().user.update({
      where: { sourcedId: `${tag}-their-t` },
      data: { userMasterIdentifier: `${tag}-umi-there` },
    });

    const newcomer = (i: number, extra: Partial<SchoolSpec["students"][number]>) => ({
      sourcedId: `${tag}-new${i}`,
      family: "新",
      given: `${i}`,
      homeClass: `${tag}-n12`,
      ...extra,
    });
    const grown = {
      ...north,
      students: [
        ...north.students,
        newcomer(1, { email: `here-${tag}@school.example` }),
        newcomer(2, { email: `there-${tag}@school.example` }),
        newcomer(3, {}),
        newcomer(4, {}),
      ],
    };
    const set = rosterSet([grown]);
    set.users.find((u) => u.sourcedId === `${tag}-new3`)!.sourcedId = `${tag}-their-t`; // another academy's person id
    set.roles.find((r) => r.userSourcedId === `${tag}-new3`)!.userSourcedId = `${tag}-their-t`;
    set.users.find((u) => u.sourcedId === `${tag}-new4`)!.userMasterIdentifier = `${tag}-umi-there`;
    const plan = await planRosterImport(academy.id, set);
    const shown = plan.problems.map((p) => ({
      column: p.column,
      code: p.code,
      message: p.message.replace(/^users\.csv の \d+ 行目/, ""),
    }));
    expect(shown).toEqual([
      { column: "email", code: "emailTaken", message: "「email」のメールアドレスは、名簿の取り込みでは使えません。" },
      { column: "email", code: "emailTaken", message: "「email」のメールアドレスは、名簿の取り込みでは使えません。" },
      {
        column: "sourcedId",
        code: "idUnusable",
        message: "「sourcedId」の sourcedId は、名簿の取り込みでは使えません。",
      },
      {
        column: "userMasterIdentifier",
        code: "umiTaken",
        message:
          "「userMasterIdentifier」の userMasterIdentifier は、名簿の取り込みでは使えません。その人の値か確かめて、直してください。",
      },
    ]);
  }, 120_000);
});

describe("OneRoster plan warnings", () => {
  it("a student whose homeroom enrollment carries no 出席番号 is planned and applied with a warning at that enrollment", async () => {
    const { tag, academy, north } = await academyWithSets();
    const set = rosterSet([
      { ...north, students: north.students.map((s, i) => (i === 1 ? { ...s, number: undefined } : s)) },
    ]);
    const line = set.enrollments.find((e) => e.userSourcedId === `${tag}-n11-s2`)!.line;
    const plan = await planRosterImport(academy.id, set);
    expect(plan.problems).toEqual([]);
    expect(plan.warnings).toEqual([
      expect.objectContaining({
        file: "enrollments.csv",
        line,
        column: "metadata.jp.ShussekiNo",
        code: "noShussekiNo",
        message: `enrollments.csv の ${line} 行目「metadata.jp.ShussekiNo」：出席番号がありません。この生徒は番号なしで取り込まれます。番号が要るなら、名簿に入れて送り直してください。`,
      }),
    ]);
    const applied = await applyRosterImport(academy.id, set);
    expect(applied.applied).toBe(true);
    expect(applied.warnings).toHaveLength(1);
    expect(
      (await db().user.findUniqueOrThrow({ where: { sourcedId: `${tag}-n11-s2` }, include: { student: true } }))
        .student,
    ).toMatchObject({ grade: 1, className: "1", number: null });
  }, 120_000);
});
