import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { ownMarks } from "@/features/results/server/mark-queries";
import { markResponse } from "@/features/results/server/mark-commands";
import { markInput } from "@/features/results/shared/mark-schema";
import { correctRates } from "@/features/results/server/correct-rate-queries";
import { researchHeader, researchRows, resultsCsv } from "@/features/results/server/export-queries";
import { studentResponses } from "@/features/results/server/portfolio-queries";
import { activityStats } from "@/features/results/server/stats";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createResponse, createUser } from "../../../prisma/seed/factories";
import { dissolveActivity, twoSchools } from "../../../tests/support/two-schools";

let school: AuthorizedSchoolId;
let other: AuthorizedSchoolId;
let activity: string;
let otherActivity: string;
let scenes: { id: string; type: string; position: number }[];
let drawingScene: string;
let teacher: string;
let teacher2: string;
let students: string[];
let stranger: string;
/** responses by [student index] on the free-text scene, the choice scene and the drawing scene */
const text: string[] = [];
const choice: string[] = [];
const drawn: string[] = [];
let strangerText: string;
let otherActivityText: string;

const ctx = (actorId = teacher, schoolId = school) => ({ schoolId, actorId });
const input = (
  responseId: string,
  verdict: "correct" | "partly" | "incorrect" | null,
  comment = "",
  activityId = activity,
) => markInput.parse({ activityId, responseId, verdict, comment });
const markRow = (responseId: string) => db().responseMark.findUnique({ where: { responseId } });

beforeAll(async () => {
  const world = await twoSchools();
  const tag = world.tag;
  school = world.school.id as AuthorizedSchoolId;
  other = world.other.id as AuthorizedSchoolId;
  activity = (await dissolveActivity(school)).activity;
  otherActivity = (await dissolveActivity(school)).activity;
  drawingScene = (
    await db().activityScene.create({
      data: { activityId: activity, type: "drawing", position: 5, content: { prompt: "図をかこう" } },
    })
  ).id;
  scenes = await db().activityScene.findMany({
    where: { activityId: activity },
    orderBy: { position: "asc" },
    select: { id: true, type: true, position: true },
  });
  teacher = (
    await createUser(db(), { role: "teacher", email: `mt-${tag}@t.example`, schoolId: school, name: "採点 先生" })
  ).id;
  teacher2 = (
    await createUser(db(), { role: "teacher", email: `mt2-${tag}@t.example`, schoolId: school, name: "二人目 先生" })
  ).id;
  students = [];
  for (const [n, group] of [
    [1, "A"],
    [2, "A"],
    [3, "B"],
  ] as const) {
    students.push(
      (
        await createUser(db(), {
          role: "student",
          email: `ms${n}-${tag}@t.example`,
          schoolId: school,
          name: `生徒${n}`,
          student: { grade: 1, className: "1", number: n, counterbalanceGroup: group },
        })
      ).id,
    );
  }
  stranger = (
    await createUser(db(), {
      role: "student",
      email: `mx-${tag}@t.example`,
      schoolId: other,
      name: "他校",
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  const free = scenes.find((s) => s.type === "free_text")!;
  const single = scenes.find((s) => s.type === "single_choice")!;
  for (const [i, s] of students.entries()) {
    text.push(
      (
        await createResponse(db(), {
          activityId: activity,
          sceneId: free.id,
          userId: s,
          scenePosition: free.position,
          answer: { text: `答え${i}` },
        })
      ).id,
    );
    choice.push(
      (
        await createResponse(db(), {
          activityId: activity,
          sceneId: single.id,
          userId: s,
          scenePosition: single.position,
          answer: { choice: "clear" },
        })
      ).id,
    );
    drawn.push(
      (
        await createResponse(db(), {
          activityId: activity,
          sceneId: drawingScene,
          userId: s,
          scenePosition: 5,
          answer: {
            strokes: [
              {
                points: [
                  [1, 1],
                  [2, 2],
                ],
              },
            ],
          },
        })
      ).id,
    );
  }
  strangerText = (
    await createResponse(db(), {
      activityId: activity,
      sceneId: free.id,
      userId: stranger,
      scenePosition: free.position,
      answer: { text: "他校の答え" },
    })
  ).id;
  const otherFree = (
    await db().activityScene.findFirstOrThrow({ where: { activityId: otherActivity, type: "free_text" } })
  ).id;
  otherActivityText = (
    await createResponse(db(), {
      activityId: otherActivity,
      sceneId: otherFree,
      userId: students[0]!,
      scenePosition: 4,
      answer: { text: "別の活動" },
    })
  ).id;
});
afterAll(async () => {
  await db().$disconnect();
});

describe("teacher marks and comments", () => {
  it("a teacher marks a free-text answer and comments on a choice answer: stored, audited, and shown on the staff view with who and when", async () => {
    const marked = await markResponse(ctx(), input(text[0]!, "correct", "よく書けました"));
    expect(marked).toMatchObject({
      ok: true,
      data: { verdict: "correct", comment: "よく書けました", markedBy: "採点 先生", stale: false },
    });
    expect(await markResponse(ctx(), input(choice[0]!, null, "<script>alert(1)</script>\r\n三日目"))).toMatchObject({
      ok: true,
    });
    expect(await markRow(text[0]!)).toMatchObject({
      verdict: "correct",
      comment: "よく書けました",
      markedById: teacher,
    });
    // stored as written (shown as text, never as markup), line ends made \n
    expect((await markRow(choice[0]!))?.comment).toBe("<script>alert(1)</script>\n三日目");
    const audits = await db().auditLog.findMany({
      where: { action: "response.mark", targetId: { in: [text[0]!, choice[0]!] } },
    });
    expect(audits).toHaveLength(2);
    expect(JSON.stringify(audits.map((a) => a.meta))).not.toContain("よく書けました");
    const view = (await studentResponses(school, activity, students[0]!))!;
    const free = view.responses.find((r) => r.id === text[0]);
    expect(free?.mark).toMatchObject({
      verdict: "correct",
      comment: "よく書けました",
      markedBy: { name: "採点 先生" },
    });
  });

  it("refuses another school's response, a missing one, one of another activity, a verdict on a choice answer, a bad comment — and changes nothing", async () => {
    const before = await db().responseMark.count();
    expect(await markResponse(ctx(), input(strangerText, "correct"))).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await markResponse(ctx(), input("00000000-0000-4000-8000-000000000000", "correct"))).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await markResponse(ctx(), input(otherActivityText, "correct"))).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    // a teacher of another school, through its own scope
    expect(await markResponse(ctx(teacher, other), input(text[1]!, "correct"))).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await markResponse(ctx(), input(choice[1]!, "correct"))).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(
      markInput.safeParse({ activityId: activity, responseId: text[1], verdict: "correct", comment: "あ".repeat(501) })
        .success,
    ).toBe(false);
    expect(
      markInput.safeParse({ activityId: activity, responseId: text[1], verdict: "correct", comment: "a\u0000b" })
        .success,
    ).toBe(false);
    expect(
      markInput.safeParse({ activityId: activity, responseId: text[1], verdict: "perfect", comment: "" }).success,
    ).toBe(false);
    expect(markInput.safeParse({ activityId: activity, responseId: "x", verdict: null, comment: "" }).success).toBe(
      false,
    );
    expect(await db().responseMark.count()).toBe(before);
    // nothing to keep (no verdict, no comment) clears the mark
    expect(await markResponse(ctx(), input(drawn[2]!, "incorrect", "もう一度"))).toMatchObject({ ok: true });
    expect(await markResponse(ctx(), input(drawn[2]!, null, "   "))).toMatchObject({ ok: true, data: null });
    expect(await markRow(drawn[2]!)).toBeNull();
  });

  it("keeps a mark when the answer changes, flagged as made before the change; the last of two teachers wins and is named", async () => {
    await markResponse(ctx(), input(text[1]!, "incorrect", "惜しい"));
    await db().response.update({ where: { id: text[1]! }, data: { answer: { text: "直した答え" } } });
    const view = (await studentResponses(school, activity, students[1]!))!;
    // staff read the comment as written, the student with its furigana
    expect(view.responses.find((r) => r.id === text[1])?.mark).toMatchObject({
      verdict: "incorrect",
      comment: "惜しい",
    });
    expect(await ownMarksOf(1, true)).toMatchObject({
      [scenes.find((s) => s.type === "free_text")!.id]: { verdict: "incorrect", comment: "|惜(お)しい", stale: true },
    });
    const second = await markResponse(ctx(teacher2), input(text[1]!, "partly", "直してよくなった"));
    expect(second).toMatchObject({ ok: true, data: { verdict: "partly", markedBy: "二人目 先生", stale: false } });
    expect(await markRow(text[1]!)).toMatchObject({ verdict: "partly", markedById: teacher2 });
  });

  it("a save over another teacher's mark the form had not seen says whose mark it replaced; one over the mark it showed does not", async () => {
    const first = await markResponse(ctx(), input(choice[1]!, null, "一人目"));
    const seen = first.ok ? first.data!.markedAt : "";
    // teacher 2 opened the page before the first mark (saw none): told it replaced 採点 先生's
    const over = await markResponse(ctx(teacher2), { ...input(choice[1]!, null, "二人目"), seen: null });
    expect(over).toMatchObject({
      ok: true,
      data: { comment: "二人目", markedBy: "二人目 先生", replaced: { by: "採点 先生", at: seen } },
    });
    // teacher 1 saves again having seen teacher 2's mark: nothing replaced unseen
    const again = await markResponse(ctx(), {
      ...input(choice[1]!, null, "三回目"),
      seen: over.ok ? over.data!.markedAt : "",
    });
    expect(again.ok && again.data!.replaced).toBeUndefined();
    // the form of a mark it showed at another time: told
    const stale = await markResponse(ctx(teacher2), { ...input(choice[1]!, null, "四回目"), seen });
    expect(stale).toMatchObject({ ok: true, data: { replaced: { by: "採点 先生" } } });
  });

  it("the student sees marks only as the feedback timing allows and comments whenever the page opens; another student sees none of them", async () => {
    const free = scenes.find((s) => s.type === "free_text")!.id;
    const single = scenes.find((s) => s.type === "single_choice")!.id;
    // feedback "never": comments only
    expect(await ownMarksOf(0, false)).toEqual({
      [free]: { verdict: null, comment: "よく|書(か)けました", stale: false },
      // the student reads a comment with its automatic furigana (staff read it as written)
      [single]: { verdict: null, comment: "<script>alert(1)</script>\n|三日(みっか)|目(め)", stale: false },
    });
    expect(await ownMarksOf(0, true)).toMatchObject({ [free]: { verdict: "correct" } });
    // student 2 has no marks; a student of another school asking for this activity gets nothing
    expect(await ownMarksOf(2, true)).toEqual({});
    expect(await ownMarks({ id: stranger, schoolId: other }, activity, { verdicts: true })).toEqual({});
    expect(await ownMarks({ id: stranger, schoolId: school }, activity, { verdicts: true })).toEqual({});
    expect(await ownMarks({ id: students[0]!, schoolId: school }, "not-a-uuid", { verdicts: true })).toEqual({});
  });

  it("the correct rate of free-text and drawing scenes counts current marks, partly on its own; both CSVs carry mark and comment, injection-safe", async () => {
    const free = scenes.find((s) => s.type === "free_text")!.id;
    await markResponse(ctx(), input(text[2]!, "correct", '=HYPERLINK("http://x")'));
    await markResponse(ctx(), input(drawn[0]!, "incorrect"));
    await markResponse(ctx(), input(drawn[1]!, "correct"));
    const rates = await correctRates(school, activity);
    // free text: 0 correct, 1 partly (student 1, re-marked after the change), 2 correct
    expect(rates[free]).toEqual({
      marked: true,
      all: { answered: 3, correct: 2, partly: 1 },
      groups: { A: { answered: 2, correct: 1, partly: 1 }, B: { answered: 1, correct: 1, partly: 0 } },
    });
    expect(rates[drawingScene]).toMatchObject({ marked: true, all: { answered: 2, correct: 1, partly: 0 } });
    // a mark made before the answer changed is not counted
    await db().response.update({ where: { id: drawn[1]! }, data: { answer: { strokes: [] } } });
    expect((await correctRates(school, activity))[drawingScene]).toMatchObject({
      all: { answered: 1, correct: 0, partly: 0 },
    });
    expect(await correctRates(other, activity)).toEqual({});
    expect((await correctRates(school, activity, { group: "B" }))[free]).toMatchObject({
      all: { answered: 1, correct: 1, partly: 0 },
    });

    const stats = (await activityStats(school, activity, {}))!;
    const csv = resultsCsv(stats, "ja");
    expect(csv.split("\r\n")[0]).toContain(",先生の採点,先生のコメント");
    expect(csv).toContain(`答え0,生徒1,1,,1,正解,よく書けました,${stats.academicYear}`); // …, 割合, 版, 先生の採点, 先生のコメント, 年度
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(csv).toContain("部分正解,,1,33.3");
    let research = "";
    for await (const chunk of researchRows(school, activity, false, "ja")) research += chunk;
    expect(researchHeader(false, "ja").slice(-3)).toEqual(["先生の採点", "先生のコメント", "年度"]); // the academic year closes the row

    const line = research.split("\r\n").find((l) => l.includes("直した答え"))!;
    expect(line.endsWith(`,部分正解,直してよくなった,${stats.academicYear}`)).toBe(true);
    expect(research).toContain(`,"'=HYPERLINK(""http://x"")"`);
    expect(research).toContain(`,,"<script>alert(1)</script>\n三日目"`);
  });

  it("a comment takes the scene texts' markup: kept as written for staff, read by the student with automatic furigana (the teacher's own ruby kept); one without kanji gets none", async () => {
    const free = scenes.find((s) => s.type === "free_text")!.id;
    const saved = await markResponse(
      ctx(),
      input(text[1]!, null, "**よく**できました。説明も正確です\n|明日(あした)も"),
    );
    expect(saved).toMatchObject({ ok: true, data: { comment: "**よく**できました。説明も正確です\n|明日(あした)も" } });
    expect(await markRow(text[1]!)).toMatchObject({
      comment: "**よく**できました。説明も正確です\n|明日(あした)も",
      commentFurigana: "**よく**できました。|説明(せつめい)も|正確(せいかく)です\n|明日(あした)も",
    });
    expect((await ownMarksOf(1, false))[free]).toEqual({
      verdict: null,
      comment: "**よく**できました。|説明(せつめい)も|正確(せいかく)です\n|明日(あした)も",
      stale: false,
    });
    await markResponse(ctx(), input(text[1]!, null, "**よく**できました"));
    expect(await markRow(text[1]!)).toMatchObject({ comment: "**よく**できました", commentFurigana: null });
    expect((await ownMarksOf(1, false))[free]).toMatchObject({ comment: "**よく**できました" });
  });
});

function ownMarksOf(i: number, verdicts: boolean) {
  return ownMarks({ id: students[i]!, schoolId: school }, activity, { verdicts });
}
