/**
 * Fill-in-the-blanks and number scenes (features/scenes/shared/fill-blanks.ts, number-answer.ts) against
 * PostgreSQL: a bad scene is refused and nothing is added; answers go through the one writer (bad ones refused,
 * nothing stored); a respondent's copy holds no key; the live results, the statistics and the CSV count them.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/platform/db";
import { sceneResults } from "@/features/play/server/state-queries";
import { loadForRespondent } from "@/features/play/server/answer-queries";
import { addScene } from "@/features/activities/server/scene-commands";
import { addSceneSchema } from "@/features/activities/shared/scene-schema";
import { researchRows, resultsCsv } from "@/features/results/server/export-queries";
import { activityStats } from "@/features/results/server/stats";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

let students: string[];
let activity: string;
let blanks: string;
let number: string;
let schoolId: AuthorizedSchoolId;
let teacher: string;

const add = async (scene: unknown) => {
  const { version } = await db().activity.findUniqueOrThrow({ where: { id: activity }, select: { version: true } });
  return addScene({ schoolId, actorId: teacher }, { activityId: activity, version, scene: scene as never });
};
const sceneId = (r: Awaited<ReturnType<typeof add>>) => {
  if (!r.ok) throw new Error(`addScene: ${r.code}`);
  return r.data.sceneId;
};

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `F${tag}`, nameKana: "えふ" });
  schoolId = (await createSchool(db(), { academyId: academy.id, name: `F${tag}`, nameKana: "えふ" }))
    .id as AuthorizedSchoolId;
  students = [];
  for (const n of [1, 2, 3])
    students.push(
      (
        await createUser(db(), {
          role: "student",
          email: `fb${n}-${tag}@t.example`,
          schoolId,
          student: { grade: 1, className: "1", number: n },
        })
      ).id,
    );
  teacher = (await createUser(db(), { role: "teacher", email: `fbt-${tag}@t.example`, schoolId })).id;
  activity = (await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId, mode: "self" })).id;
});
afterAll(async () => {
  await db().$disconnect();
});

const save = (scene: string, answer: unknown, who: string, clientRevision = 1) =>
  saveAnswer(who, {
    activityId: activity,
    sceneId: scene,
    answer,
    clientRevision,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "self",
  });

it("the add action refuses a text without blanks or with an empty answer, and a negative tolerance; good ones are added", async () => {
  const count = () => db().activityScene.count({ where: { activityId: activity } });
  const before = await count();
  const { version } = await db().activity.findUniqueOrThrow({ where: { id: activity }, select: { version: true } });
  const input = (scene: unknown) => addSceneSchema.safeParse({ activityId: activity, version, scene });
  expect(input({ type: "fill_blanks", content: { prompt: "q", text: "空らんなし" } }).success).toBe(false);
  expect(input({ type: "fill_blanks", content: { prompt: "q", text: "[[a/]]" } }).success).toBe(false);
  expect(input({ type: "number", content: { prompt: "q", tolerance: -1 } }).success).toBe(false);
  expect(await count()).toBe(before);
  blanks = sceneId(
    await add({
      type: "fill_blanks",
      content: { prompt: "書こう", text: "首都は[[|東京(とうきょう)]]、[[100/百]]度" },
    }),
  );
  number = sceneId(
    await add({ type: "number", content: { prompt: "長さ", unit: "cm", correct: 12.5, tolerance: 0.5 } }),
  );
  expect(await count()).toBe(before + 2);
});

it("a respondent's copy holds neither the blanks' answers nor the correct number", async () => {
  const own = (await loadForRespondent({ id: students[0]!, role: "student", schoolId }, activity))!;
  const shown = JSON.stringify(own.scenes.filter((s) => s.id === blanks || s.id === number));
  expect(shown).toContain("首都は[[…]]、[[…]]度");
  expect(shown).not.toMatch(/東京|とうきょう|百|12\.5/);
});

it("answers are stored through the writer; a wrong count of blanks or a number as text is refused and nothing stored", async () => {
  const invalid = { ok: false, status: 400, code: "VALIDATION" };
  expect(await save(blanks, { blanks: ["東京"] }, students[0]!)).toMatchObject(invalid);
  expect(await save(number, { number: "12" }, students[0]!)).toMatchObject(invalid);
  expect(await save(number, { number: 1e13 }, students[0]!)).toMatchObject(invalid);
  expect(await db().response.count({ where: { sceneId: { in: [blanks, number] } } })).toBe(0);
  const answers: [unknown, unknown][] = [
    [{ blanks: ["トウキョウ", "１００"] }, { number: 12.9 }],
    [{ blanks: ["とうきょう", "90"] }, { number: 13.5 }],
    [{ blanks: ["京都", "90"] }, { number: 12 }],
  ];
  for (const [i, [b, n]] of answers.entries()) {
    expect(await save(blanks, b, students[i]!)).toMatchObject({ ok: true });
    expect(await save(number, n, students[i]!)).toMatchObject({ ok: true });
  }
});

it("statistics: the correct rate by the key, right per blank with the common wrong answers, the numbers typed; the CSVs too", async () => {
  const stats = (await activityStats(schoolId, activity, {}))!;
  const b = stats.scenes.find((s) => s.id === blanks)!;
  const n = stats.scenes.find((s) => s.id === number)!;
  expect(b.correct?.all).toEqual({ answered: 3, correct: 1 });
  expect(b.typed).toEqual({ blankRight: { "0": 2, "1": 1 }, blank0: { 京都: 1 }, blank1: { "90": 2 } });
  expect(n.correct?.all).toEqual({ answered: 3, correct: 2 });
  expect(n.typed.number).toEqual({ "12": 1, "12.9": 1, "13.5": 1 });
  const csv = resultsCsv(stats, "ja");
  expect(csv).toContain("1番目の空らん,正答率,2,66.7");
  expect(csv).toContain("2番目の空らん,誤答: 90,2,66.7");
  expect(csv).toContain("13.5,cm,1,33.3");
  let research = "";
  for await (const chunk of researchRows(schoolId, activity, false, "ja")) research += chunk;
  expect(research).toContain("トウキョウ / １００");
  expect(research).toContain("不正解");
});

it("the live results count right per blank and each number, with the share right", async () => {
  expect((await sceneResults(activity, blanks, false)).counts).toEqual({
    blankRight: { "0": 2, "1": 1 },
    blank0: { 京都: 1 },
    blank1: { "90": 2 },
  });
  expect((await sceneResults(activity, number, false)).counts).toEqual({
    number: { "12": 1, "12.9": 1, "13.5": 1 },
    numberRight: { right: 2, wrong: 1 },
  });
});
