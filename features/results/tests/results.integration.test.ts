import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { researchColumns, researchRows } from "@/features/results/server/export-queries";
import { listPortfolios, portfolioOf, studentResponses } from "@/features/results/server/portfolio-queries";
import { activityStats, cellReasons, medianOf } from "@/features/results/server/stats";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createResponse, createUser } from "../../../prisma/seed/factories";
import { dissolveActivity, twoSchools } from "../../../tests/support/two-schools";

let school: AuthorizedSchoolId;
let other: AuthorizedSchoolId;
let activity: string;
let scenes: { id: string }[];
const students: string[] = [];
let stranger: string;

beforeAll(async () => {
  const world = await twoSchools();
  const tag = world.tag;
  school = world.school.id as AuthorizedSchoolId;
  other = world.other.id as AuthorizedSchoolId;
  ({ activity, scenes } = await dissolveActivity(school));
  for (let n = 1; n <= 8; n++) {
    const group = n % 2 ? "A" : "B";
    const id = (
      await createUser(db(), {
        role: "student",
        email: `st${n}-${tag}@t.example`,
        schoolId: school,
        name: `統計 ${n}`,
        student: { grade: 1, className: n <= 4 ? "1" : "2", number: n, counterbalanceGroup: group },
      })
    ).id;
    students.push(id);
    const mode = n <= 6 ? "self" : "guide";
    await createResponse(db(), {
      activityId: activity,
      sceneId: scenes[1]!.id,
      userId: id,
      scenePosition: 1,
      mode,
      counterbalanceGroup: group,
      answer: { first: n <= 3 ? "more" : "same", second: "sure", reason: `r${n}` },
    });
    await createResponse(db(), {
      activityId: activity,
      sceneId: scenes[2]!.id,
      userId: id,
      scenePosition: 2,
      mode,
      counterbalanceGroup: group,
      answer: { choice: n <= 5 ? "clear" : "cloudy" },
    });
    if (n <= 2)
      await createResponse(db(), {
        activityId: activity,
        sceneId: scenes[4]!.id,
        userId: id,
        scenePosition: 4,
        mode,
        answer: { text: `感想${n}` },
      });
  }
  // another school's student answering a copy: never counted here
  stranger = (
    await createUser(db(), {
      role: "student",
      email: `x-${tag}@t.example`,
      schoolId: other,
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  await createResponse(db(), {
    activityId: activity,
    sceneId: scenes[2]!.id,
    userId: stranger,
    scenePosition: 2,
    answer: { choice: "colored" },
  });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("statistics", () => {
  it("counts in SQL what a direct count says, for every filter", async () => {
    const all = (await activityStats(school, activity, {}))!;
    expect(all.overview).toEqual({ assigned: 8, started: 8, finished: 0, guide: 2, self: 6 });
    const two = all.scenes[1]!;
    expect(two.cross).toEqual({ more: { sure: 3 }, same: { sure: 5 } });
    expect(all.scenes[2]!.choices).toEqual({ clear: 5, cloudy: 3 });
    expect(all.scenes[2]!.answered).toBe(8);
    expect(all.scenes[4]!.texts.map((t) => t.text)).toEqual(["感想1", "感想2"]);

    const b = (await activityStats(school, activity, { group: "B" }))!;
    expect(b.overview.assigned).toBe(4);
    expect(b.scenes[2]!.choices).toEqual({ clear: 2, cloudy: 2 });
    const class2 = (await activityStats(school, activity, { class: "1:2" }))!;
    expect(class2.scenes[1]!.cross).toEqual({ same: { sure: 4 } });
    const guide = (await activityStats(school, activity, { mode: "guide" }))!;
    expect(guide.overview.started).toBe(2);
    expect(guide.scenes[2]!.choices).toEqual({ cloudy: 2 });
    const sql = await db().$queryRaw<{ n: number }[]>`
      select count(*)::int as n from responses r join student_details sd on sd.user_id = r.user_id
      where r.scene_id = ${scenes[2]!.id}::uuid and sd.counterbalance_group = 'B' and r.answer->>'choice' = 'clear'
        and r.user_id in (select id from users where school_id = ${school}::uuid)`;
    expect(sql[0]!.n).toBe(2);
  });

  it("lists a cell's reasons; another school sees nothing of this activity", async () => {
    expect((await cellReasons(school, activity, scenes[1]!.id, "more", "sure", {})).map((r) => r.reason)).toEqual([
      "r1",
      "r2",
      "r3",
    ]);
    expect(await activityStats(other, activity, {})).toBeNull();
    expect(await cellReasons(other, activity, scenes[1]!.id, "more", "sure", {})).toEqual([]);
  });

  it("lists who has not answered each question scene (any mode, within the filters), by full name and seat; none for information scenes", async () => {
    const all = (await activityStats(school, activity, {}))!;
    expect(all.scenes[0]!.scene.type).toBe("info");
    expect(all.scenes[0]!.notAnswered).toEqual([]);
    expect(all.scenes[2]!.notAnswered).toEqual([]);
    expect(all.scenes[4]!.notAnswered.map((p) => p.id)).toEqual(students.slice(2));
    expect(all.scenes[4]!.notAnswered[0]).toMatchObject({
      name: { base: "統計 3" },
      seat: { grade: 1, className: "1", number: 3 },
    });
    expect(all.scenes[3]!.notAnswered.map((p) => p.id)).not.toContain(stranger);
    // the mode filter does not turn a student who answered in the other mode into "not answered"
    expect((await activityStats(school, activity, { mode: "guide" }))!.scenes[2]!.notAnswered).toEqual([]);
    expect((await activityStats(school, activity, { group: "B" }))!.scenes[4]!.notAnswered.map((p) => p.id)).toEqual([
      students[3],
      students[5],
      students[7],
    ]);
  });

  it("takes the median of a 1–5 distribution", () => {
    expect(medianOf({})).toBeNull();
    expect(medianOf({ "1": 1, "5": 1 })).toBe(3);
    expect(medianOf({ "2": 3, "4": 1 })).toBe(2);
    expect(medianOf({ "1": 1, "2": 1, "5": 1 })).toBe(2);
  });
});

describe("exports, responses, portfolios", () => {
  it("the research export has only the school's rows: another school's respondent is never in it", async () => {
    let text = "";
    for await (const chunk of researchRows(school, activity, false, "ja")) text += chunk;
    const lines = text.trim().split("\r\n");
    expect(lines).toHaveLength(
      await db().response.count({ where: { activityId: activity, user: { schoolId: school } } }),
    );
    expect(text).toContain(students[0]);
    expect(text).not.toContain(stranger);
    expect(text).not.toContain("colored");
  });

  it("the pseudonymous export carries no seat number, id or name, and its pseudonyms differ from one export to the next", async () => {
    const columns = researchColumns(true);
    expect(columns).not.toContain("number");
    expect(columns).not.toContain("student_id");
    const read = async () => {
      let out = "";
      for await (const chunk of researchRows(school, activity, true, "ja")) out += chunk;
      return out
        .trim()
        .split("\r\n")
        .map((l) => l.split(","));
    };
    const first = await read();
    expect(first.every((cells) => cells.length >= columns.length)).toBe(true);
    const text = first.flat().join(",");
    for (const id of students) expect(text).not.toContain(id);
    expect(text).not.toContain("統計");
    const pseudonyms = (rows: string[][]) => rows.map((cells) => cells[columns.indexOf("pseudonym")]!);
    // one pseudonym per respondent within an export (8 students), none shared with the next export
    expect(new Set(pseudonyms(first)).size).toBe(8);
    const second = await read();
    expect(pseudonyms(second).some((p) => new Set(pseudonyms(first)).has(p))).toBe(false);
    // grade and class stay (aggregates by class); the seat number column is gone
    expect(first.map((cells) => cells[columns.indexOf("class")])).toContain("2");
  });

  it("a student's responses and portfolio only within the school", async () => {
    const one = await studentResponses(school, activity, students[0]!);
    expect(one?.responses).toHaveLength(3);
    expect(await studentResponses(other, activity, students[0]!)).toBeNull();
    expect((await portfolioOf(school, students[0]!))?.activities.map((a) => a.id)).toEqual([activity]);
    expect(await portfolioOf(other, students[0]!)).toBeNull();
    const list = await listPortfolios(school, { sort: "activities", dir: "desc", q: "統計 1" });
    expect(list.map((r) => r.id)).toEqual([students[0]]);
    expect(list[0]!.activities).toBe(1);
  });

  it("the portfolio list counts and names only the school's own activities", async () => {
    // the stranger of the other school answered this school's activity (see beforeAll)
    const row = (await listPortfolios(other, { sort: "class", dir: "asc" })).find((r) => r.id === stranger);
    expect(row).toMatchObject({ activities: 0, last_at: null, last_title: null });
  });
});
