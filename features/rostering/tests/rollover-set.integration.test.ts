import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { researchRows } from "@/features/results/server/export-queries";
import { applyRollover } from "@/features/rostering/server/rollover-commands";
import { applyRosterImport } from "@/features/rostering/server/commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { parseCsv } from "@/features/people/shared/csv";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { type SchoolSpec, rosterSet, students } from "../../../tests/support/roster-fixture";

/**
 * #22 point 6: the year-end rollover fed by next year's OneRoster set of the school. The set
 * decides each listed student's 年・組・番号 (by sourcedId), creates the new first-graders, the
 * top grade graduates, a student the bulk set leaves out is disabled; one transaction, once.
 */
beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
});
afterAll(async () => {
  await db().$disconnect();
});

/** A 中学 imported from this year's set: J1 組 1, J2 組 1, J3 組 1 (two students each, 番号 1 and 2); a J1 student has answered. */
async function importedSchool() {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `RS${tag}`, nameKana: "あーるえす" });
  const spec: SchoolSpec = {
    sourcedId: `${tag}-sch`,
    name: `東中学校${tag}`,
    classes: [
      { sourcedId: `${tag}-c11`, title: "1年1組", grade: "J1" },
      { sourcedId: `${tag}-c21`, title: "2年1組", grade: "J2" },
      { sourcedId: `${tag}-c31`, title: "3年1組", grade: "J3" },
    ],
    students: [
      ...students(`${tag}-j1`, `${tag}-c11`, 2),
      ...students(`${tag}-j2`, `${tag}-c21`, 2),
      ...students(`${tag}-j3`, `${tag}-c31`, 2),
    ],
    teachers: [],
  };
  expect((await applyRosterImport(academy.id, rosterSet([spec]))).applied).toBe(true);
  const school = await db().school.findFirstOrThrow({
    where: { academyId: academy.id },
    select: { id: true, currentYear: true, name: true },
  });
  const schoolId = school.id as AuthorizedSchoolId;
  const manager = await createUser(db(), { role: "manager", email: `rsm-${tag}@t.example`, academyId: academy.id });
  const idOf = async (sourcedId: string) =>
    (await db().user.findUniqueOrThrow({ where: { sourcedId }, select: { id: true } })).id;
  const activity = await createActivityFromTemplate(db(), { templateId: "reflection-weekly", schoolId, mode: "self" });
  const scene = await db().activityScene.findFirstOrThrow({ where: { activityId: activity.id }, select: { id: true } });
  await createResponse(db(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId: await idOf(`${tag}-j1-s1`),
    answer: { value: 3 },
    scenePosition: 0,
  });
  // next year's set: the J1s move to J2 組 2 (番号 5) and 組 1 (番号 1), one J2 to J3 組 1 番号 2, the other J2 left; a new J1
  const next: SchoolSpec = {
    ...spec,
    classes: [
      { sourcedId: `${tag}-n11`, title: "1年1組", grade: "J1" },
      { sourcedId: `${tag}-n21`, title: "2年1組", grade: "J2" },
      { sourcedId: `${tag}-n22`, title: "2年2組", grade: "J2" },
      { sourcedId: `${tag}-n31`, title: "3年1組", grade: "J3" },
    ],
    students: [
      { ...students(`${tag}-j1`, `${tag}-n22`, 1)[0]!, number: 5 },
      { ...students(`${tag}-j1`, `${tag}-n21`, 2)[1]!, number: 1 },
      { ...students(`${tag}-j2`, `${tag}-n31`, 2)[0]!, number: 2 },
      {
        sourcedId: `${tag}-new1`,
        family: "鈴木",
        given: "一郎",
        kanaFamily: "スズキ",
        kanaGiven: "イチロウ",
        homeClass: `${tag}-n11`,
        number: 1,
      },
    ],
  };
  const input = { schoolId, expectedYear: school.currentYear, topGrade: 3, classMoves: [], confirmName: school.name };
  return {
    tag,
    academy,
    spec,
    next,
    schoolId,
    ctx: { schoolId, actorId: manager.id },
    input,
    activity: activity.id,
    idOf,
    year: school.currentYear,
  };
}

const seatBySourced = (sourcedId: string) =>
  db().user.findUniqueOrThrow({
    where: { sourcedId },
    select: {
      disabled: true,
      student: { select: { grade: true, className: true, number: true, graduatedYear: true } },
    },
  });
const snapshot = async (academyId: string) =>
  JSON.stringify([
    await db().school.findMany({ where: { academyId }, select: { currentYear: true } }),
    await db().user.findMany({
      where: { school: { academyId } },
      orderBy: { id: "asc" },
      select: {
        id: true,
        disabled: true,
        student: { select: { grade: true, className: true, number: true, graduatedYear: true } },
      },
    }),
    await db().signinCode.count({ where: { user: { school: { academyId } }, revokedAt: null } }),
    await db().rosterClass.count({ where: { school: { academyId } } }),
  ]);

describe("year-end rollover with next year's roster set", () => {
  it("the preview shows each student's new 年・組・番号, the newcomer and who leaves, and changes nothing", async () => {
    const s = await importedSchool();
    const before = await snapshot(s.academy.id);
    const preview = await applyRollover(s.ctx, s.input, { set: rosterSet([s.next]), dryRun: true });
    if (!preview.ok) throw new Error("preview failed");
    expect(preview.data).toMatchObject({ applied: false, year: s.year + 1, graduated: 2 });
    expect(preview.data.roster?.problems).toEqual([]);
    const rows = preview.data.roster!.schools[0]!.preview.students.rows.map((r) => [
      r.action,
      r.sourcedId,
      r.grade,
      r.className,
      r.number,
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ["create", `${s.tag}-new1`, 1, "1", 1],
        ["update", `${s.tag}-j1-s1`, 2, "2", 5],
        ["update", `${s.tag}-j1-s2`, 2, "1", 1],
        ["update", `${s.tag}-j2-s1`, 3, "1", 2],
        ["disable", `${s.tag}-j2-s2`, null, null, null],
      ]),
    );
    expect(await snapshot(s.academy.id)).toBe(before);
  });

  it("applies once: seats from the set, the newcomer created with a card, the top grade graduated, the left-out student disabled, answers kept, new cards where 組 changed", async () => {
    const s = await importedSchool();
    const moved = await s.idOf(`${s.tag}-j1-s1`);
    const kept = await s.idOf(`${s.tag}-j1-s2`);
    const result = await applyRollover(s.ctx, s.input, { set: rosterSet([s.next]) });
    if (!result.ok) throw new Error("rollover failed");
    expect(result.data).toMatchObject({ applied: true, year: s.year + 1, graduated: 2 });
    expect(await seatBySourced(`${s.tag}-j1-s1`)).toEqual({
      disabled: false,
      student: { grade: 2, className: "2", number: 5, graduatedYear: null },
    });
    expect(await seatBySourced(`${s.tag}-j1-s2`)).toEqual({
      disabled: false,
      student: { grade: 2, className: "1", number: 1, graduatedYear: null },
    });
    expect(await seatBySourced(`${s.tag}-j2-s1`)).toEqual({
      disabled: false,
      student: { grade: 3, className: "1", number: 2, graduatedYear: null },
    });
    expect(await seatBySourced(`${s.tag}-j2-s2`)).toMatchObject({ disabled: true, student: { graduatedYear: null } });
    // last year's answers stay at last year's seat (1年1組1番), not the set's 2年2組5番 (features/people/server/year-seat.ts)
    let research = "";
    for await (const chunk of researchRows(s.schoolId, s.activity, false, "ja")) research += chunk;
    expect(
      parseCsv(research)
        .find((r) => r.fields[4] === moved)
        ?.fields.slice(1, 4),
    ).toEqual(["1", "1", "1"]);
    expect(await seatBySourced(`${s.tag}-j3-s1`)).toEqual({
      disabled: true,
      student: { grade: 3, className: "1", number: 1, graduatedYear: s.year },
    });
    const newcomer = await db().user.findUniqueOrThrow({
      where: { sourcedId: `${s.tag}-new1` },
      select: {
        id: true,
        schoolId: true,
        name: true,
        student: { select: { grade: true, className: true, number: true } },
      },
    });
    expect(newcomer).toMatchObject({
      schoolId: s.schoolId,
      name: "鈴木 一郎",
      student: { grade: 1, className: "1", number: 1 },
    });
    expect(await db().signinCode.count({ where: { userId: newcomer.id, revokedAt: null } })).toBe(1);
    // 組 1 → 2: a new card (the old one revoked); 組 1 → 1: the same card; the newcomer's card is printed too
    expect(result.data.reissuedIds.sort()).toEqual([moved, newcomer.id].sort());
    expect(await db().signinCode.count({ where: { userId: moved, revokedAt: { not: null } } })).toBe(1);
    expect(await db().signinCode.count({ where: { userId: kept, revokedAt: { not: null } } })).toBe(0);
    expect(await db().response.count({ where: { activityId: s.activity, userId: moved } })).toBe(1);
    expect(await db().activity.findUnique({ where: { id: s.activity }, select: { status: true } })).toEqual({
      status: "archived",
    });

    // sent again (a second tab, a double click): nothing more
    const after = await snapshot(s.academy.id);
    expect(await applyRollover(s.ctx, s.input, { set: rosterSet([s.next]) })).toEqual({ ok: false, code: "CONFLICT" });
    expect(await snapshot(s.academy.id)).toBe(after);
    expect(await db().auditLog.count({ where: { action: "school.rollover", schoolId: s.schoolId } })).toBe(1);
  });

  it("sent twice at once, the year and the seats advance once", async () => {
    const s = await importedSchool();
    const results = await Promise.all([
      applyRollover(s.ctx, s.input, { set: rosterSet([s.next]) }),
      applyRollover(s.ctx, s.input, { set: rosterSet([s.next]) }),
    ]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(await db().user.count({ where: { sourcedId: `${s.tag}-new1` } })).toBe(1);
    expect(await seatBySourced(`${s.tag}-j2-s1`)).toMatchObject({ student: { grade: 3, className: "1", number: 2 } });
  });

  it("a set with problems (another school, a graduate listed, a seat twice) changes nothing and says where", async () => {
    const s = await importedSchool();
    const before = await snapshot(s.academy.id);
    const elsewhere: SchoolSpec = {
      sourcedId: `${s.tag}-west`,
      name: `西中学校${s.tag}`,
      classes: [],
      students: [],
      teachers: [],
    };
    const graduate = { ...students(`${s.tag}-j3`, `${s.tag}-n31`, 1)[0]!, number: 9 };
    const twice = {
      ...students(`${s.tag}-j2`, `${s.tag}-n22`, 1)[0]!,
      sourcedId: `${s.tag}-new2`,
      family: "田中",
      number: 5,
    };
    const bad = rosterSet([{ ...s.next, students: [...s.next.students, graduate, twice] }, elsewhere]);
    const result = await applyRollover(s.ctx, s.input, { set: bad });
    if (!result.ok) throw new Error("expected the plan with its problems");
    expect(result.data.applied).toBe(false);
    const codes = result.data.roster!.problems.map((p) => [p.code, p.file, p.column]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ["otherSchool", "orgs.csv", "sourcedId"],
        ["graduateInSet", "users.csv", "sourcedId"],
        ["seatTaken", "enrollments.csv", "metadata.jp.ShussekiNo"],
      ]),
    );
    expect(result.data.roster!.problems.every((p) => p.line > 0)).toBe(true);
    expect(await snapshot(s.academy.id)).toBe(before);
    expect(await db().auditLog.count({ where: { action: "school.rollover", schoolId: s.schoolId } })).toBe(0);
  });

  it("a set naming a school of another academy is refused, changing nothing in either", async () => {
    const s = await importedSchool();
    const theirs = await importedSchool();
    const before = [await snapshot(s.academy.id), await snapshot(theirs.academy.id)];
    const result = await applyRollover(s.ctx, s.input, { set: rosterSet([theirs.next]) });
    if (!result.ok) throw new Error("expected the plan with its problems");
    expect(result.data.applied).toBe(false);
    expect(result.data.roster!.problems.map((p) => p.code)).toContain("schoolOfOtherAcademy");
    expect([await snapshot(s.academy.id), await snapshot(theirs.academy.id)]).toEqual(before);
  });
});
