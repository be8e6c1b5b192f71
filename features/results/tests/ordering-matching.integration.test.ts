/**
 * 並べ替え and 線でつなぐ against real PostgreSQL: answers saved through the one answer writer (bad ones refused,
 * nothing stored), then marked in SQL (the correct rate: fully right), counted per position and per pair on the
 * stats object, and written to both CSVs with the items' labels.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import { researchRows, resultsCsv } from "@/features/results/server/export-queries";
import { activityStats } from "@/features/results/server/stats";
import { correctRates } from "@/features/results/server/correct-rate-queries";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { parseCsv } from "@/features/people/shared/csv";
import { loadMessages } from "@/platform/i18n/messages";
import { createUser, uniqueTag } from "../../../prisma/seed/factories";
import { dissolveActivity, twoSchools } from "../../../tests/support/two-schools";

let school: AuthorizedSchoolId;
let activity: string;
let ordering: string;
let matching: string;
const students: string[] = [];
const csvWords = loadMessages("ja").ResultsCsv;

const item = (id: string, label: string) => ({ id, label });
const ORDERING = {
  prompt: "古い順に並べましょう。",
  items: [item("ix1", "縄文時代"), item("ix2", "弥生時代"), item("ix3", "古墳時代")],
};
const MATCHING = {
  prompt: "国と首都をつなぎましょう。",
  left: [
    { ...item("jp", "日本"), correct: "tk" },
    { ...item("fr", "フランス"), correct: "pa" },
  ],
  right: [item("pa", "パリ"), item("tk", "東京"), item("be", "ベルリン")],
};

const save = (userId: string, sceneId: string, answer: unknown) =>
  saveAnswer(userId, {
    activityId: activity,
    sceneId,
    answer,
    clientRevision: 1,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "self",
  });

beforeAll(async () => {
  const world = await twoSchools();
  school = world.school.id as AuthorizedSchoolId;
  const made = await dissolveActivity(school);
  activity = made.activity;
  ordering = made.scenes[1]!.id;
  matching = made.scenes[2]!.id;
  await db().activityScene.update({ where: { id: ordering }, data: { type: "ordering", content: ORDERING } });
  await db().activityScene.update({ where: { id: matching }, data: { type: "matching", content: MATCHING } });
  for (let i = 0; i < 3; i++)
    students.push(
      (
        await createUser(db(), {
          role: "student",
          email: `om${i}-${world.tag}@t.example`,
          schoolId: school,
          name: `並替 ${i}`,
          student: { grade: 2, className: "1", number: i + 1 },
        })
      ).id,
    );
});
afterAll(async () => {
  await db().$disconnect();
});

describe("ordering and matching answers", () => {
  it("refuses an answer that leaves an item out, repeats one or names an unknown one, and stores nothing", async () => {
    for (const order of [
      ["ix1", "ix2"],
      ["ix1", "ix1", "ix3"],
      ["ix1", "ix2", "zz"],
    ])
      expect(await save(students[0]!, ordering, { order })).toMatchObject({ ok: false, status: 400 });
    for (const pairs of [{ jp: "tk" }, { jp: "tk", fr: "rome" }, { jp: "tk", fr: "pa", de: "be" }])
      expect(await save(students[0]!, matching, { pairs })).toMatchObject({ ok: false, status: 400 });
    expect(await db().response.count({ where: { activityId: activity } })).toBe(0);
  });

  it("marks fully right answers in SQL as the key does, and counts per position and per pair", async () => {
    const orders = [
      ["ix1", "ix2", "ix3"],
      ["ix2", "ix1", "ix3"],
      ["ix1", "ix2", "ix3"],
    ];
    const pairs = [
      { jp: "tk", fr: "pa" },
      { jp: "pa", fr: "pa" },
      { jp: "tk", fr: "be" },
    ];
    for (const [i, s] of students.entries()) {
      expect(await save(s, ordering, { order: orders[i] })).toMatchObject({ ok: true });
      expect(await save(s, matching, { pairs: pairs[i] })).toMatchObject({ ok: true });
    }
    const rates = await correctRates(school, activity);
    expect(rates[ordering]!.all).toEqual({ answered: 3, correct: 2 });
    expect(rates[matching]!.all).toEqual({ answered: 3, correct: 1 });

    const stats = (await activityStats(school, activity, {}))!;
    const o = stats.scenes.find((s) => s.id === ordering)!;
    expect(o.cross).toEqual({ ix1: { "0": 2, "1": 1 }, ix2: { "0": 1, "1": 2 }, ix3: { "2": 3 } });
    expect(o.correct?.all).toEqual({ answered: 3, correct: 2 });
    const m = stats.scenes.find((s) => s.id === matching)!;
    expect(m.cross).toEqual({ jp: { tk: 2, pa: 1 }, fr: { pa: 2, be: 1 } });
  });

  it("writes per position and per pair rows to the results CSV, and the labels of each answer to the research CSV", async () => {
    const stats = (await activityStats(school, activity, {}))!;
    const rows = parseCsv(resultsCsv(stats, "ja").replace(/^\uFEFF/, "")).map((r) => r.fields);
    const mine = (n: string) => rows.filter((r) => r[0] === n);
    expect(mine("2").map((r) => r.slice(1, 6))).toEqual([
      ["並べ替え", ORDERING.prompt, csvWords.answered, "", "3"],
      ["並べ替え", ORDERING.prompt, csvWords.correctRate, "", "2"],
      ["並べ替え", ORDERING.prompt, "1", "縄文時代", "2"],
      ["並べ替え", ORDERING.prompt, "2", "弥生時代", "2"],
      ["並べ替え", ORDERING.prompt, "3", "古墳時代", "3"],
    ]);
    expect(
      mine("3")
        .slice(2)
        .map((r) => r.slice(3, 7)),
    ).toEqual([
      ["日本", "東京", "2", "66.7"],
      ["フランス", "パリ", "2", "66.7"],
    ]);
    let text = "";
    for await (const chunk of researchRows(school, activity, false, "ja")) text += chunk;
    expect(text).toContain("弥生時代 → 縄文時代 → 古墳時代");
    expect(text).toContain("日本 → パリ、フランス → パリ");
  });
});
