/**
 * Editing never loses an answer (docs/adr/0059-scene-versions.md): an edit of a
 * scene that has answers makes a new version, each answer records the version it answered, the
 * earlier content is kept for its answers, exports carry the version, and a scene deleted with
 * answers is retired (gone from the activity, its answers still in the CSV).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteScene, saveSceneContent } from "@/features/activities/server/scene-commands";
import { db } from "@/platform/db";
import { researchHeader, researchRows, resultsCsv } from "@/features/results/server/export-queries";
import { studentResponses } from "@/features/results/server/portfolio-queries";
import { activityStats } from "@/features/results/server/stats";
import { loadOwnFeedback } from "@/features/play/server/answer-queries";
import { AnswerWriter } from "@/features/play/server/answer-writer";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { parseCsv } from "@/features/people/shared/csv";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { testDatabaseUrl } from "../../../tests/support/helpers";

const choice = (prompt: string, a: string, b: string) => ({
  type: "single_choice" as const,
  content: {
    prompt,
    options: [
      { id: "a", label: a },
      { id: "b", label: b },
    ],
  },
});

let pool: pg.Pool;
let editor: pg.Client;
let writer: AnswerWriter;
let school: AuthorizedSchoolId;
let other: AuthorizedSchoolId;
let teacher: string;
const students: string[] = [];
const ctx = () => ({ schoolId: school, actorId: teacher });

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2, application_name: "scene-versions-writer" });
  editor = new pg.Client({ connectionString: testDatabaseUrl() });
  await editor.connect();
  writer = new AnswerWriter(async (sql, params, name) => (await pool.query({ name, text: sql, values: params })).rows);
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `V${tag}`, nameKana: "ぶい" });
  school = (await createSchool(db(), { academyId: academy.id, name: `V${tag}`, nameKana: "ぶい" }))
    .id as AuthorizedSchoolId;
  other = (await createSchool(db(), { academyId: academy.id, name: `W${tag}`, nameKana: "だぶりゅ" }))
    .id as AuthorizedSchoolId;
  teacher = (await createUser(db(), { role: "teacher", email: `vt-${tag}@t.example`, schoolId: school })).id;
  for (const number of [1, 2, 3]) {
    students.push(
      (
        await createUser(db(), {
          role: "student",
          email: `vs${number}-${tag}@t.example`,
          schoolId: school,
          student: { grade: 1, className: "1", number },
        })
      ).id,
    );
  }
});
afterAll(async () => {
  await editor?.end();
  await pool?.end();
  await db().$disconnect();
});

/** A fresh self-mode copy of math-linear-equations (info, single, multiple, two_step, scale). */
async function fresh() {
  const id = (
    await createActivityFromTemplate(db(), { templateId: "math-linear-equations", schoolId: school, mode: "self" })
  ).id;
  const scenes = await db().activityScene.findMany({
    where: { activityId: id },
    orderBy: { position: "asc" },
    select: { id: true },
  });
  return { id, ids: scenes.map((s) => s.id) };
}
const answer = (userId: string, activityId: string, sceneId: string, a: unknown, clientRevision = 1) =>
  writer.save(userId, {
    activityId,
    sceneId,
    answer: a,
    clientRevision,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "self",
  });
async function csv(activityId: string) {
  let text = "";
  for await (const chunk of researchRows(school, activityId, false, "ja")) text += chunk;
  return parseCsv(text).map((r) => r.fields);
}
const versionOf = async (sceneId: string, userId: string) =>
  (
    await db().response.findUniqueOrThrow({
      where: { userId_sceneId: { userId, sceneId } },
      select: { sceneVersion: true },
    })
  ).sceneVersion;

describe("scene versions", () => {
  it("an answer under v1, an edit, an answer under v2: both kept with their own content and version, and the CSV carries both", async () => {
    const a = await fresh();
    const scene = a.ids[1]!;
    await saveSceneContent(ctx(), {
      activityId: a.id,
      version: 1,
      sceneId: scene,
      scene: choice("好きな果物は？", "りんご", "みかん"),
    });
    expect(await answer(students[0]!, a.id, scene, { choice: "a" })).toMatchObject({ ok: true });
    // without the teacher's confirmation the edit is refused, naming how many answered
    const edit = { activityId: a.id, version: 2, sceneId: scene, scene: choice("好きな野菜は？", "にんじん", "なす") };
    expect(await saveSceneContent(ctx(), edit)).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { scene: ["answered"] },
    });
    expect(await saveSceneContent(ctx(), { ...edit, newVersion: true })).toEqual({ ok: true, data: { version: 3 } });
    expect(await answer(students[1]!, a.id, scene, { choice: "a" })).toMatchObject({ ok: true });

    expect(await versionOf(scene, students[0]!)).toBe(1);
    expect(await versionOf(scene, students[1]!)).toBe(2);
    const stored = await db().activityScene.findUniqueOrThrow({
      where: { id: scene },
      select: { version: true, content: true, versions: { select: { version: true, content: true } } },
    });
    expect(stored.version).toBe(2);
    expect(stored.content).toMatchObject({ prompt: "好きな野菜は？" });
    expect(stored.versions).toEqual([{ version: 1, content: choice("好きな果物は？", "りんご", "みかん").content }]);

    // each row is read with its own version's labels, and says which version it answered
    const rows = await csv(a.id);
    const col = researchHeader(false, "ja").indexOf("版");
    expect(col).toBeGreaterThan(0);
    const mine = rows.filter((r) => r.includes(scene));
    expect(mine.map((r) => [r[col], r.includes("りんご"), r.includes("にんじん")]).sort()).toEqual([
      ["1", true, false],
      ["2", false, true],
    ]);

    // statistics count each version with its own content: v2's option a is にんじん (1), v1's was りんご (1)
    const stats = (await activityStats(school, a.id, {}))!;
    const counted = stats.scenes.find((x) => x.id === scene)!;
    expect([counted.version, counted.answered, counted.choices, counted.scene.content.prompt]).toEqual([
      2,
      1,
      { a: 1 },
      "好きな野菜は？",
    ]);
    expect(counted.earlier.map((e) => [e.version, e.answered, e.choices, e.scene.content.prompt])).toEqual([
      [1, 1, { a: 1 }, "好きな果物は？"],
    ]);
    const results = parseCsv(resultsCsv(stats, "ja")).map((r) => r.fields);
    expect(results[0]![7]).toBe("版");
    expect(results.filter((r) => r[3] === "りんご").map((r) => [r[5], r[7]])).toEqual([["1", "1"]]);
    expect(results.filter((r) => r[3] === "にんじん").map((r) => [r[5], r[7]])).toEqual([["1", "2"]]);
    // the first student's answers are shown with the question they answered
    const view = (await studentResponses(school, a.id, students[0]!))!;
    expect(view.scenes.find((x) => x.id === scene)).toMatchObject({
      answeredVersion: 1,
      content: { prompt: "好きな果物は？" },
    });

    // an edit while only older versions have answers stays the current version (nobody answered it yet)
    await db().response.delete({ where: { userId_sceneId: { userId: students[1]!, sceneId: scene } } });
    expect(
      await saveSceneContent(ctx(), {
        activityId: a.id,
        version: 3,
        sceneId: scene,
        scene: choice("好きな野菜は？", "にんじん", "ピーマン"),
      }),
    ).toEqual({ ok: true, data: { version: 4 } });
    expect(
      (await db().activityScene.findUniqueOrThrow({ where: { id: scene }, select: { version: true } })).version,
    ).toBe(2);
  });

  it("a verdict is never worked out with another version's key: an answer to version 1 gets none once version 2 has its own", async () => {
    const a = await fresh();
    const scene = a.ids[1]!;
    await db().activity.update({ where: { id: a.id }, data: { feedback: "after_answer" } });
    const keyed = (correct: "a" | "b") => ({
      type: "single_choice" as const,
      content: {
        prompt: "問い",
        options: [
          { id: "a", label: "あ", ...(correct === "a" ? { correct: true } : {}) },
          { id: "b", label: "い", ...(correct === "b" ? { correct: true } : {}) },
        ],
      },
    });
    await saveSceneContent(ctx(), { activityId: a.id, version: 1, sceneId: scene, scene: keyed("a") });
    expect(await answer(students[0]!, a.id, scene, { choice: "a" })).toMatchObject({ ok: true });
    const who = { id: students[0]!, schoolId: school };
    expect((await loadOwnFeedback(who, a.id, { finished: false }))[scene]).toMatchObject({ verdict: "correct" });
    await saveSceneContent(ctx(), {
      activityId: a.id,
      version: 2,
      sceneId: scene,
      scene: keyed("b"),
      newVersion: true,
    });
    expect((await loadOwnFeedback(who, a.id, { finished: false }))[scene]).toBeUndefined();
  });

  it("an answer that waits on an edit making a new version is stored under the new version, never the old", async () => {
    const a = await fresh();
    const scene = a.ids[4]!; // scale
    expect(await answer(students[0]!, a.id, scene, { value: 3 })).toMatchObject({ ok: true });
    // the edit as saveSceneContent makes it: lock the row, keep the old content, new content and version; not yet committed
    await editor.query("begin");
    await editor.query("select id from activity_scenes where id = $1 for update", [scene]);
    await editor.query(
      "insert into scene_versions (scene_id, version, content) select id, version, content from activity_scenes where id = $1",
      [scene],
    );
    await editor.query(
      `update activity_scenes set content = content || '{"prompt": "新しい問い"}'::jsonb, version = version + 1 where id = $1`,
      [scene],
    );
    const settled: boolean[] = [];
    const saving = [
      answer(students[0]!, a.id, scene, { value: 5 }, 2),
      answer(students[1]!, a.id, scene, { value: 4 }),
    ].map((p) => p.finally(() => settled.push(true)));
    const waiting = async () =>
      (
        await editor.query(
          "select count(*)::int as n from pg_stat_activity where application_name = 'scene-versions-writer' and wait_event_type = 'Lock'",
        )
      ).rows[0].n as number;
    await expect.poll(async () => (await waiting()) + settled.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await editor.query("commit");
    expect(await Promise.all(saving)).toEqual([
      expect.objectContaining({ ok: true }),
      expect.objectContaining({ ok: true }),
    ]);
    expect(await versionOf(scene, students[0]!)).toBe(2);
    expect(await versionOf(scene, students[1]!)).toBe(2);
  });

  it("deleting an answered scene asks first, then retires it: gone for students, its answers still in the CSV", async () => {
    const a = await fresh();
    const scene = a.ids[1]!;
    expect(await answer(students[2]!, a.id, scene, { choice: await firstOption(scene) })).toMatchObject({ ok: true });
    expect(await deleteScene(ctx(), { activityId: a.id, version: 1, sceneId: scene })).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { scene: ["answered"] },
    });
    expect(await deleteScene(ctx(), { activityId: a.id, version: 1, sceneId: scene, retire: true })).toEqual({
      ok: true,
      data: { version: 2 },
    });
    const left = await db().activityScene.findMany({
      where: { activityId: a.id },
      orderBy: { position: "asc" },
      select: { id: true, position: true },
    });
    expect(left.map((s) => s.id)).toEqual(a.ids.filter((id) => id !== scene));
    expect(left.map((s) => s.position)).toEqual([0, 1, 2, 3]);
    // students no longer get it: a new answer is refused as not found
    expect(await answer(students[0]!, a.id, scene, { choice: "a" })).toMatchObject({ ok: false, status: 404 });
    // the answer stays, in the CSV with its scene's labels
    expect(await db().response.count({ where: { sceneId: scene } })).toBe(1);
    const rows = await csv(a.id);
    expect(rows.filter((r) => r.includes(scene))).toHaveLength(1);
    // the statistics are of the activity's scenes: the student who answered only the retired one has not started it
    expect((await activityStats(school, a.id, {}))!.overview.started).toBe(0);
    // deleting the activity deletes the retired scene with it
    await db().activity.delete({ where: { id: a.id } });
    expect(await db().activityScene.count({ where: { id: scene } })).toBe(0);
  });

  it("another school's teacher can neither edit nor delete (a new version or a retirement) the school's scenes", async () => {
    const a = await fresh();
    const scene = a.ids[1]!;
    expect(await answer(students[0]!, a.id, scene, { choice: await firstOption(scene) })).toMatchObject({ ok: true });
    const stranger = { schoolId: other, actorId: teacher };
    expect(
      await saveSceneContent(stranger, {
        activityId: a.id,
        version: 1,
        sceneId: scene,
        scene: choice("乗っ取り", "x", "y"),
        newVersion: true,
      }),
    ).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await deleteScene(stranger, { activityId: a.id, version: 1, sceneId: scene, retire: true })).toEqual({
      ok: false,
      code: "NOT_FOUND",
    });
    const stored = await db().activityScene.findUniqueOrThrow({
      where: { id: scene },
      select: { version: true, activityId: true },
    });
    expect(stored).toEqual({ version: 1, activityId: a.id });
  });
});

async function firstOption(sceneId: string): Promise<string> {
  const s = await db().activityScene.findUniqueOrThrow({ where: { id: sceneId }, select: { content: true } });
  return (s.content as { options: { id: string }[] }).options[0]!.id;
}
