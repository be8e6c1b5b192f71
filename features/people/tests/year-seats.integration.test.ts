import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { researchRows } from "@/features/results/server/export-queries";
import { activityStats, type Person } from "@/features/results/server/stats";
import { applyRollover } from "@/features/rostering/server/rollover-commands";
import { listSchoolPeople } from "@/features/people/server/school-queries";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { parseCsv } from "@/features/people/shared/csv";
import { listStudents } from "@/features/people/server/queries";
import { addStudent, importStudents } from "@/features/people/server/commands";
import { studentListQuery } from "@/features/people/shared/schema";
import { createActivityFromTemplate, createResponse, createUser } from "../../../prisma/seed/factories";
import { twoSchools } from "../../../tests/support/two-schools";

/**
 * #22: each year's seat (年・組・番号) is kept. A past year's answers are listed at the seat the
 * student had that year, this year's at the new one; graduates are listed apart and no longer
 * hold their old seat.
 */
afterAll(async () => {
  await db().$disconnect();
});

/** A school with a J1 student (1年1組1番) and a J3 student (3年1組5番), both answering one activity of this year. */
async function school() {
  const { tag, academy, school } = await twoSchools();
  const schoolId = school.id as AuthorizedSchoolId;
  const manager = await createUser(db(), { role: "manager", email: `ym-${tag}@t.example`, academyId: academy.id });
  const teacher = await createUser(db(), { role: "teacher", email: `yt-${tag}@t.example`, schoolId });
  const junior = (
    await createUser(db(), {
      role: "student",
      email: `yj-${tag}@t.example`,
      schoolId,
      name: "一年 生徒",
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  const senior = (
    await createUser(db(), {
      role: "student",
      email: `ys-${tag}@t.example`,
      schoolId,
      name: "三年 生徒",
      student: { grade: 3, className: "1", number: 5 },
    })
  ).id;
  const answered = async (userIds: string[]) => {
    const activity = await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId, mode: "self" });
    const scene = await db().activityScene.findFirstOrThrow({
      where: { activityId: activity.id, type: "two_step" },
      select: { id: true, position: true },
      // the template has two two-step scenes: the statistics read the first
      orderBy: { position: "asc" },
    });
    for (const userId of userIds) {
      await createResponse(db(), {
        activityId: activity.id,
        sceneId: scene.id,
        userId,
        answer: { first: "same", second: "sure", reason: "理由" },
        scenePosition: scene.position,
      });
    }
    return activity.id;
  };
  const lastYear = await answered([junior, senior]);
  const { currentYear, name } = await db().school.findUniqueOrThrow({
    where: { id: schoolId },
    select: { currentYear: true, name: true },
  });
  return {
    tag,
    schoolId,
    manager,
    teacher: { schoolId, actorId: teacher.id },
    junior,
    senior,
    lastYear,
    answered,
    currentYear,
    name,
  };
}

/** grade, 組, 番号 of each user's rows in the research CSV (columns 2–4, the user id in column 5). */
async function researchSeats(schoolId: AuthorizedSchoolId, activityId: string) {
  let text = "";
  for await (const chunk of researchRows(schoolId, activityId, false, "ja")) text += chunk;
  return new Map(parseCsv(text).map((r) => [r.fields[4], r.fields.slice(1, 4).join("-")]));
}
const seatsOf = (people: Person[]) =>
  new Map(people.map((p) => [p.id, `${p.seat.grade}-${p.seat.className}-${p.seat.number}`]));

describe("seats by year", () => {
  it("after a rollover, last year's results and CSV show last year's seat; this year's show the new seat", async () => {
    const s = await school();
    const rolled = await applyRollover(
      { schoolId: s.schoolId, actorId: s.manager.id },
      {
        schoolId: s.schoolId,
        expectedYear: s.currentYear,
        topGrade: 3,
        classMoves: [{ grade: 1, className: "1", to: "2" }],
        confirmName: s.name,
      },
    );
    expect(rolled.ok).toBe(true);
    // the student is now 2年2組1番 …
    expect(
      await db().studentDetail.findUniqueOrThrow({
        where: { userId: s.junior },
        select: { grade: true, className: true, number: true },
      }),
    ).toEqual({ grade: 2, className: "2", number: 1 });

    // … but last year's activity lists them where they sat then: research CSV, statistics, the class filter
    const csv = await researchSeats(s.schoolId, s.lastYear);
    expect(csv.get(s.junior)).toBe("1-1-1");
    expect(csv.get(s.senior)).toBe("3-1-5");
    const stats = (await activityStats(s.schoolId, s.lastYear, {}))!;
    expect(seatsOf(stats.respondents).get(s.junior)).toBe("1-1-1");
    const reasons = stats.scenes.find((x) => x.scene.type === "two_step")!;
    expect(reasons.answered).toBe(2);
    const inClass = async (key: string) =>
      (await activityStats(s.schoolId, s.lastYear, { class: key }))!.respondents.map((p) => p.id);
    expect(await inClass("1:1")).toEqual([s.junior]);
    expect(await inClass("3:1")).toEqual([s.senior]);
    // this year's seat (2年2組) is not where they sat for last year's activity
    expect(await inClass("2:2")).toEqual([]);
    // "not answered yet": the students at school (the graduate is not), at that year's seat and 組
    const unanswered = (await activityStats(s.schoolId, s.lastYear, { class: "1:1" }))!.scenes.find(
      (x) => x.scene.type !== "info" && x.answered === 0,
    )!;
    expect([...seatsOf(unanswered.notAnswered)]).toEqual([[s.junior, "1-1-1"]]);

    // this year's activity lists the new seat
    const thisYear = await s.answered([s.junior]);
    expect((await researchSeats(s.schoolId, thisYear)).get(s.junior)).toBe("2-2-1");
    expect(seatsOf((await activityStats(s.schoolId, thisYear, {}))!.respondents).get(s.junior)).toBe("2-2-1");
    expect((await activityStats(s.schoolId, thisYear, { class: "2:2" }))!.respondents.map((p) => p.id)).toEqual([
      s.junior,
    ]);

    // a teacher moving the student during the new year changes this year's seat, never last year's
    await db().studentDetail.update({ where: { userId: s.junior }, data: { number: 9 } });
    expect((await researchSeats(s.schoolId, thisYear)).get(s.junior)).toBe("2-2-9");
    expect((await researchSeats(s.schoolId, s.lastYear)).get(s.junior)).toBe("1-1-1");
  });

  it("a graduate is hidden from the students list by default and listed under graduates; a new student may take the graduate's old seat", async () => {
    const s = await school();
    expect(
      (
        await applyRollover(
          { schoolId: s.schoolId, actorId: s.manager.id },
          { schoolId: s.schoolId, expectedYear: s.currentYear, topGrade: 3, classMoves: [], confirmName: s.name },
        )
      ).ok,
    ).toBe(true);

    const current = await listStudents(s.schoolId, studentListQuery.parse({}));
    expect(current.rows.map((r) => r.id)).toEqual([s.junior]);
    expect(current.total).toBe(1);
    const graduates = await listStudents(s.schoolId, studentListQuery.parse({ view: "graduates" }));
    expect(graduates.rows.map((r) => [r.id, r.grade, r.className, r.number, r.graduatedYear])).toEqual([
      [s.senior, 3, "1", 5, s.currentYear],
    ]);
    // an unknown view is the default one
    expect(
      (await listStudents(s.schoolId, studentListQuery.parse({ view: "<script>" }))).rows.map((r) => r.id),
    ).toEqual([s.junior]);
    const people = (await listSchoolPeople(s.schoolId))!;
    expect(people.students.map((p) => p.id)).toEqual([s.junior]);
    expect(people.graduates.map((p) => [p.id, p.graduatedYear])).toEqual([[s.senior, s.currentYear]]);

    // the graduate's old seat (3年1組5番) is free: by hand, and by a CSV import
    const added = await addStudent(s.teacher, {
      name: "新 三年",
      nameKana: "",
      email: null,
      grade: 3,
      className: "1",
      number: 5,
      group: null,
    });
    expect(added.ok).toBe(true);
    const imported = await importStudents(
      s.teacher,
      new TextEncoder().encode("学年,組,番号,氏名\n3,1,5,重なり 一\n3,1,6,新 三年二\n"),
      true,
    );
    // 3-1-5 is now held by the student just added (at school), not by the graduate
    expect(imported).toMatchObject({
      ok: true,
      data: { imported: 0, rows: [{ errors: ["duplicateSeat"] }, { errors: [] }] },
    });
    await db().studentDetail.deleteMany({ where: { user: { schoolId: s.schoolId }, graduatedYear: null, grade: 3 } });
    const again = await importStudents(
      s.teacher,
      new TextEncoder().encode("学年,組,番号,氏名\n3,1,5,重なり 一\n"),
      true,
    );
    expect(again).toMatchObject({ ok: true, data: { imported: 1 } });
    // the graduate keeps the old seat as history
    expect(
      await db().studentDetail.findUniqueOrThrow({
        where: { userId: s.senior },
        select: { grade: true, className: true, number: true },
      }),
    ).toEqual({ grade: 3, className: "1", number: 5 });
  });
});
