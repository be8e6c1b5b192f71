import { afterAll, describe, expect, it } from "vitest";
import { listActivitiesForSchool, listActivityYears } from "@/features/activities/server/queries";
import { db } from "@/platform/db";
import { researchRows, resultsCsv } from "@/features/results/server/export-queries";
import { activityStats } from "@/features/results/server/stats";
import { previewRollover } from "@/features/rostering/server/rollover-queries";
import { academicYearOf, inferTopGrade, planRollover } from "@/features/rostering/shared/rollover-plan";
import { applyRollover } from "@/features/rostering/server/rollover-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import {
  createActivityFromTemplate,
  createResponse,
  createSigninCode,
  createUser,
} from "../../../prisma/seed/factories";
import { TEST_SIGNIN_CODE_KEY } from "../../../tests/support/helpers";
import { twoSchools } from "../../../tests/support/two-schools";

afterAll(async () => {
  await db().$disconnect();
});

/** A school of 中学 students: J1 組 1 and 2, J2 組 1, J3 組 1 (two each), each with a live card, and one answered activity of this year. */
async function juniorHigh() {
  const { tag, academy, school, other } = await twoSchools();
  const schoolId = school.id as AuthorizedSchoolId;
  const manager = await createUser(db(), { role: "manager", email: `rm-${tag}@t.example`, academyId: academy.id });
  const seats: [number, string][] = [
    [1, "1"],
    [1, "2"],
    [2, "1"],
    [3, "1"],
  ];
  const students: Record<string, string> = {};
  for (const [grade, className] of seats) {
    for (const number of [1, 2]) {
      const id = (
        await createUser(db(), {
          role: "student",
          email: `rs-${grade}${className}${number}-${tag}@t.example`,
          schoolId,
          name: `生徒${grade}${className}${number}`,
          student: { grade, className, number },
        })
      ).id;
      await createSigninCode(db(), id, TEST_SIGNIN_CODE_KEY);
      students[`${grade}-${className}-${number}`] = id;
    }
  }
  const activity = await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId, mode: "self" });
  const scene = await db().activityScene.findFirstOrThrow({
    where: { activityId: activity.id, type: "two_step" },
    select: { id: true, position: true },
  });
  await createResponse(db(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId: students["3-1-1"]!,
    answer: { first: "same", second: "sure", reason: "卒業生の答え" },
    scenePosition: scene.position,
  });
  const { currentYear, name } = await db().school.findUniqueOrThrow({
    where: { id: schoolId },
    select: { currentYear: true, name: true },
  });
  return {
    tag,
    schoolId,
    other,
    ctx: { schoolId, actorId: manager.id },
    students,
    activity: activity.id,
    currentYear,
    name,
  };
}

const seatOf = (userId: string) =>
  db().studentDetail.findUniqueOrThrow({
    where: { userId },
    select: { grade: true, className: true, number: true, graduatedYear: true },
  });
const liveCodes = (userId: string) =>
  db().signinCode.findMany({ where: { userId, revokedAt: null }, select: { id: true } });

describe("year-end rollover (年次更新)", () => {
  it("the preview lists every class's move, infers the top grade and flags seats two students would hold", async () => {
    const s = await juniorHigh();
    const preview = await previewRollover(s.schoolId);
    expect(preview?.school.currentYear).toBe(academicYearOf(new Date()));
    expect(preview?.activities).toBe(1);
    const top = inferTopGrade(preview!.classes);
    expect(top).toBe(3);
    const plan = planRollover(preview!.classes, top, []);
    expect(plan.steps.map((c) => [c.grade, c.className, c.count, c.to])).toEqual([
      [1, "1", 2, { grade: 2, className: "1" }],
      [1, "2", 2, { grade: 2, className: "2" }],
      [2, "1", 2, { grade: 3, className: "1" }],
      [3, "1", 2, null],
    ]);
    expect(plan).toMatchObject({ promoted: 6, graduates: 2, reissued: 0, clashes: [] });
    // two J1 classes merged into one 組 keep their numbers: both 1s and both 2s would share a seat
    expect(planRollover(preview!.classes, 3, [{ grade: 1, className: "2", to: "1" }]).clashes.sort()).toEqual([
      "2-1-1",
      "2-1-2",
    ]);
    expect(await seatOf(s.students["1-1-1"]!)).toEqual({ grade: 1, className: "1", number: 1, graduatedYear: null }); // nothing changed
  });

  it("applies once: promotes, graduates (disabled, answers kept), reissues cards only where 組 changed, archives the year's activities with results and exports still readable", async () => {
    const s = await juniorHigh();
    const input = {
      schoolId: s.schoolId,
      expectedYear: s.currentYear,
      topGrade: 3,
      classMoves: [
        { grade: 1, className: "1", to: "2" },
        { grade: 1, className: "2", to: "1" },
      ],
      confirmName: s.name,
    };
    const codesBefore = await liveCodes(s.students["2-1-1"]!);
    const result = await applyRollover(s.ctx, input);
    expect(result).toMatchObject({
      ok: true,
      data: { year: s.currentYear + 1, promoted: 6, graduated: 2, archived: 1 },
    });
    if (!result.ok) throw new Error("rollover failed");
    expect(result.data.reissuedIds.sort()).toEqual(
      [s.students["1-1-1"], s.students["1-1-2"], s.students["1-2-1"], s.students["1-2-2"]].sort(),
    );

    expect(await seatOf(s.students["1-1-1"]!)).toEqual({ grade: 2, className: "2", number: 1, graduatedYear: null });
    expect(await seatOf(s.students["1-2-2"]!)).toEqual({ grade: 2, className: "1", number: 2, graduatedYear: null });
    // the J2 student now holds the seat the graduate keeps as history (the seat rule counts only students still at school)
    expect(await seatOf(s.students["2-1-1"]!)).toEqual({ grade: 3, className: "1", number: 1, graduatedYear: null });
    // the graduate keeps the last seat as history, is disabled (not deleted), has no live card
    const graduate = s.students["3-1-1"]!;
    expect(await seatOf(graduate)).toEqual({ grade: 3, className: "1", number: 1, graduatedYear: s.currentYear });
    expect(await db().user.findUnique({ where: { id: graduate }, select: { disabled: true } })).toEqual({
      disabled: true,
    });
    expect(await liveCodes(graduate)).toEqual([]);
    // 組 changed: the old card revoked, a new one; 組 kept: the same card
    expect(await liveCodes(s.students["1-1-1"]!)).toHaveLength(1);
    expect(await db().signinCode.count({ where: { userId: s.students["1-1-1"]!, revokedAt: { not: null } } })).toBe(1);
    expect(await liveCodes(s.students["2-1-1"]!)).toEqual(codesBefore);

    // the old year's activity: archived under its year, its results and exports still there (the graduate's answer too)
    expect(
      await db().activity.findUnique({ where: { id: s.activity }, select: { status: true, academicYear: true } }),
    ).toEqual({ status: "archived", academicYear: s.currentYear });
    const stats = await activityStats(s.schoolId, s.activity, {});
    expect(resultsCsv(stats!, "ja")).toContain(`${s.currentYear}`);
    let research = "";
    for await (const chunk of researchRows(s.schoolId, s.activity, false, "ja")) research += chunk;
    expect(research).toContain("卒業生の答え");
    // the archive lists it under its year, and the year filter finds it
    expect(
      (await listActivitiesForSchool(s.schoolId, "archived", { year: s.currentYear })).map((r) => [
        r.id,
        r.academicYear,
      ]),
    ).toEqual([[s.activity, s.currentYear]]);
    expect(await listActivitiesForSchool(s.schoolId, "archived", { year: s.currentYear + 1 })).toEqual([]);
    // a new activity belongs to the new year
    const fresh = await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: s.schoolId });
    expect(
      (await db().activity.findUniqueOrThrow({ where: { id: fresh.id }, select: { academicYear: true } })).academicYear,
    ).toBe(s.currentYear + 1);
    expect(await listActivityYears(s.schoolId, "active")).toEqual([s.currentYear + 1]);
    // a year given is kept (a restore brings back each row's own year, not the school's)
    const restored = await db().activity.create({
      data: { schoolId: s.schoolId, title: "復元", actorType: "student", academicYear: s.currentYear },
      select: { academicYear: true },
    });
    expect(restored.academicYear).toBe(s.currentYear);
    expect(await db().auditLog.count({ where: { action: "school.rollover", schoolId: s.schoolId } })).toBe(1);
  });

  it("applying twice, or twice at once, advances the year once", async () => {
    const s = await juniorHigh();
    const input = {
      schoolId: s.schoolId,
      expectedYear: s.currentYear,
      topGrade: 3,
      classMoves: [],
      confirmName: s.name,
    };
    const results = await Promise.all([applyRollover(s.ctx, input), applyRollover(s.ctx, input)]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, code: "CONFLICT" });
    expect(await applyRollover(s.ctx, input)).toEqual({ ok: false, code: "CONFLICT" });
    expect(await seatOf(s.students["1-1-1"]!)).toMatchObject({ grade: 2 });
    // and not past next year: the school cannot roll into the year after next
    expect(await applyRollover(s.ctx, { ...input, expectedYear: s.currentYear + 1 })).toEqual({
      ok: false,
      code: "CONFLICT",
    });
    expect(await db().school.findUnique({ where: { id: s.schoolId }, select: { currentYear: true } })).toEqual({
      currentYear: s.currentYear + 1,
    });
  });

  it("a rollover that graduates anyone is refused, changing nothing, unless the school's name is typed to confirm it", async () => {
    const s = await juniorHigh();
    const input = { schoolId: s.schoolId, expectedYear: s.currentYear, topGrade: 3, classMoves: [] };
    const unchanged = async () => {
      expect(await db().school.findUnique({ where: { id: s.schoolId }, select: { currentYear: true } })).toEqual({
        currentYear: s.currentYear,
      });
      expect(await seatOf(s.students["3-1-1"]!)).toEqual({ grade: 3, className: "1", number: 1, graduatedYear: null });
      expect(await db().user.findUnique({ where: { id: s.students["3-1-1"]! }, select: { disabled: true } })).toEqual({
        disabled: false,
      });
      expect(await seatOf(s.students["1-1-1"]!)).toMatchObject({ grade: 1 });
    };
    for (const confirmName of [undefined, "", " ", "別の学校", s.name.slice(0, -1), `${s.name}x`]) {
      expect(await applyRollover(s.ctx, { ...input, confirmName }), String(confirmName)).toEqual({
        ok: false,
        code: "VALIDATION",
        fieldErrors: { confirmName: ["notConfirmed"] },
      });
      await unchanged();
    }
    // typed with other widths or spaces, the name still confirms it
    const typed = ` ${s.name.normalize("NFKC").replace(/[A-Za-z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))} `;
    expect(await applyRollover(s.ctx, { ...input, confirmName: typed })).toMatchObject({
      ok: true,
      data: { graduated: 2 },
    });
    expect(await seatOf(s.students["3-1-1"]!)).toMatchObject({ graduatedYear: s.currentYear });
  });

  it("a rollover that graduates nobody needs no typed name", async () => {
    const s = await juniorHigh();
    expect(
      await applyRollover(s.ctx, { schoolId: s.schoolId, expectedYear: s.currentYear, topGrade: 4, classMoves: [] }),
    ).toMatchObject({ ok: true, data: { graduated: 0, promoted: 8 } });
    expect(await seatOf(s.students["3-1-1"]!)).toEqual({ grade: 4, className: "1", number: 1, graduatedYear: null });
  });

  it("refuses a mapping that puts two students on one seat, changing nothing", async () => {
    const s = await juniorHigh();
    const result = await applyRollover(s.ctx, {
      schoolId: s.schoolId,
      expectedYear: s.currentYear,
      topGrade: 3,
      classMoves: [{ grade: 1, className: "2", to: "1" }],
    });
    expect(result).toEqual({ ok: false, code: "VALIDATION", fieldErrors: { classMoves: ["seatClash"] } });
    expect(await db().school.findUnique({ where: { id: s.schoolId }, select: { currentYear: true } })).toEqual({
      currentYear: s.currentYear,
    });
    expect(await seatOf(s.students["1-2-1"]!)).toEqual({ grade: 1, className: "2", number: 1, graduatedYear: null });
    expect(await db().user.findUnique({ where: { id: s.students["3-1-1"]! }, select: { disabled: true } })).toEqual({
      disabled: false,
    });
  });
});
