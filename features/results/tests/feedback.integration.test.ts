import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setFeedback } from "@/features/activities/server/commands";
import { db } from "@/platform/db";
import { loadForRespondent, loadOwnFeedback } from "@/features/play/server/answer-queries";
import { researchHeader, researchRows, resultsCsv } from "@/features/results/server/export-queries";
import { activityStats } from "@/features/results/server/stats";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createResponse, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { dissolveActivity, twoSchools } from "../../../tests/support/two-schools";

let school: AuthorizedSchoolId;
let other: AuthorizedSchoolId;
let activity: string;
let scenes: { id: string; content: unknown }[];
let student: string;
let stranger: string;
let teacher: string;

const keyed = (content: unknown, ids: string[]) =>
  JSON.parse(JSON.stringify(content), (_k, v: unknown) =>
    v && typeof v === "object" && "id" in v && "label" in v && ids.includes((v as { id: string }).id)
      ? { ...v, correct: true }
      : v,
  );

beforeAll(async () => {
  const world = await twoSchools();
  const tag = world.tag;
  school = world.school.id as AuthorizedSchoolId;
  other = world.other.id as AuthorizedSchoolId;
  ({ activity, scenes } = await dissolveActivity(school));
  await db().activityScene.update({
    where: { id: scenes[2]!.id },
    data: { content: keyed(scenes[2]!.content, ["clear"]) },
  });
  await db().activityScene.update({
    where: { id: scenes[3]!.id },
    data: { content: keyed(scenes[3]!.content, ["out", "oxygen"]) },
  });
  teacher = (await createUser(db(), { role: "teacher", email: `ft-${tag}@t.example`, schoolId: school, name: "先生" }))
    .id;
  student = (
    await createUser(db(), {
      role: "student",
      email: `fs-${tag}@t.example`,
      schoolId: school,
      name: "生徒",
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  stranger = (
    await createUser(db(), {
      role: "student",
      email: `fx-${tag}@t.example`,
      schoolId: other,
      name: "他校",
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  await createResponse(db(), {
    activityId: activity,
    sceneId: scenes[2]!.id,
    userId: student,
    scenePosition: 2,
    answer: { choice: "cloudy" },
  });
  await createResponse(db(), {
    activityId: activity,
    sceneId: scenes[3]!.id,
    userId: student,
    scenePosition: 3,
    answer: { first: "out", second: "oxygen", reason: "r" },
  });
});
afterAll(async () => {
  await db().$disconnect();
});

const me = () => ({ id: student, role: "student" as const, schoolId: school });

describe("feedback to a respondent", () => {
  it("a respondent's copy of the content never holds the key", async () => {
    const mine = (await loadForRespondent(me(), activity))!;
    expect(JSON.stringify(mine.scenes)).not.toContain("correct");
    expect(JSON.stringify(mine.defaultOrder)).not.toContain("correct");
    expect(mine.feedback).toBe("never");
  });

  it("follows the activity's timing: never → nothing; at the end → only once finished; after each answer → every answered scene", async () => {
    expect(await loadOwnFeedback(me(), activity, { finished: true })).toEqual({});
    expect(await setFeedback({ schoolId: school, actorId: teacher }, activity, "at_end")).toEqual({
      ok: true,
      data: null,
    });
    expect(await loadOwnFeedback(me(), activity, { finished: false })).toEqual({});
    const atEnd = await loadOwnFeedback(me(), activity, { finished: true });
    expect(atEnd).toEqual({
      [scenes[2]!.id]: { verdict: "incorrect", correct: ["clear"] },
      [scenes[3]!.id]: { verdict: "correct", correct: ["out", "oxygen"] },
    });
    await setFeedback({ schoolId: school, actorId: teacher }, activity, "after_answer");
    expect(await loadOwnFeedback(me(), activity, { finished: false })).toEqual(atEnd);
    // a complete activity opens the verdicts "at the end" for everyone
    await setFeedback({ schoolId: school, actorId: teacher }, activity, "at_end");
    await db().activity.update({ where: { id: activity }, data: { mode: "complete" } });
    expect(Object.keys(await loadOwnFeedback(me(), activity, { finished: false }))).toHaveLength(2);
    await db().activity.update({ where: { id: activity }, data: { mode: "self" } });
  });

  it("gives another school's student, a forged id or another activity nothing", async () => {
    expect(await loadOwnFeedback({ id: stranger, schoolId: other }, activity, { finished: true })).toEqual({});
    expect(await loadOwnFeedback({ id: stranger, schoolId: school }, activity, { finished: true })).toEqual({});
    expect(await loadOwnFeedback(me(), "not-a-uuid", { finished: true })).toEqual({});
    expect(await loadOwnFeedback(me(), "00000000-0000-4000-8000-000000000000", { finished: true })).toEqual({});
  });

  it("the timing is set only within the school, and audited", async () => {
    expect(await setFeedback({ schoolId: other, actorId: teacher }, activity, "never")).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect((await db().activity.findUniqueOrThrow({ where: { id: activity } })).feedback).toBe("at_end");
    const logs = await db().auditLog.findMany({ where: { targetId: activity, action: "activity.feedback" } });
    expect(logs.length).toBe(3);
  });
});

describe("correct rate in SQL", () => {
  it("counts correct answers per scene and per counterbalance group, as verdictOf says, only for scenes with a key", async () => {
    const { correctRates } = await import("@/features/results/server/correct-rate-queries");
    const tag = uniqueTag();
    const extra: string[] = [];
    for (const [n, group] of [
      [2, "A"],
      [3, "B"],
      [4, "B"],
    ] as const) {
      extra.push(
        (
          await createUser(db(), {
            role: "student",
            email: `fr${n}-${tag}@t.example`,
            schoolId: school,
            name: `率${n}`,
            student: { grade: 1, className: "1", number: n, counterbalanceGroup: group },
          })
        ).id,
      );
    }
    await db().studentDetail.update({ where: { userId: student }, data: { counterbalanceGroup: "A" } });
    // solution (key: clear): student cloudy ✗, A clear ✓, B clear ✓, B colored ✗
    for (const [i, choice] of ["clear", "clear", "colored"].entries()) {
      await createResponse(db(), {
        activityId: activity,
        sceneId: scenes[2]!.id,
        userId: extra[i]!,
        scenePosition: 2,
        answer: { choice },
      });
    }
    // candle (key: out → oxygen): student ✓, A out/co2 ✗
    await createResponse(db(), {
      activityId: activity,
      sceneId: scenes[3]!.id,
      userId: extra[0]!,
      scenePosition: 3,
      answer: { first: "out", second: "co2", reason: "r" },
    });
    // a stranger's answer is never counted
    await createResponse(db(), {
      activityId: activity,
      sceneId: scenes[2]!.id,
      userId: stranger,
      scenePosition: 2,
      answer: { choice: "clear" },
    });
    const rates = await correctRates(school, activity);
    expect(rates).toEqual({
      [scenes[2]!.id]: {
        all: { answered: 4, correct: 2 },
        groups: { A: { answered: 2, correct: 1 }, B: { answered: 2, correct: 1 } },
      },
      [scenes[3]!.id]: { all: { answered: 2, correct: 1 }, groups: { A: { answered: 2, correct: 1 } } },
    });
    expect(await correctRates(other, activity)).toEqual({});
    expect(await correctRates(school, activity, { group: "B" })).toEqual({
      [scenes[2]!.id]: { all: { answered: 2, correct: 1 }, groups: { B: { answered: 2, correct: 1 } } },
    });
    expect(await correctRates(school, activity, { mode: "guide" })).toEqual({});

    // the stats object (screen and results CSV) carries it; the research export has a 正誤 column
    const stats = (await activityStats(school, activity, {}))!;
    expect(stats.scenes.map((s) => s.correct?.all ?? null)).toEqual([
      null,
      null,
      { answered: 4, correct: 2 },
      { answered: 2, correct: 1 },
      null,
    ]);
    const csv = resultsCsv(stats, "ja");
    expect(csv).toContain("正答率,,2,50");
    let research = "";
    for await (const chunk of researchRows(school, activity, false, "ja")) research += chunk;
    const verdicts = research
      .trim()
      .split("\r\n")
      .map((line) =>
        line.includes(`,"{""choice"":""clear""}",正解,`) ? "ok" : line.includes(",不正解,") ? "ng" : "-",
      );
    expect(verdicts.filter((v) => v === "ok")).toHaveLength(2);
    expect(verdicts.filter((v) => v === "ng")).toHaveLength(3);
    expect(researchHeader(false, "ja")).toContain("正誤");
  });
});
