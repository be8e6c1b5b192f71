/**
 * The bench's baseline for the sustained save rate (tools/bench/raw-writer.ts)
 * is like for like with the app's writer (features/play/server/answer-writer.ts): the same
 * saves store the same row (every column but the respondent's and the
 * timestamps), a newer revision replaces it and an older one does not, and
 * the saves of one turn of the event loop go in one statement.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { AnswerWriter } from "@/features/play/server/answer-writer";
import type { SaveAnswerInput } from "@/features/play/shared/answer-schema";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { RawWriter } from "../../../tools/bench/raw-writer";
import { testDatabaseUrl } from "../../../tests/support/helpers";

let pool: pg.Pool;
let raw: RawWriter;
let writer: AnswerWriter;
let schoolId: string;

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `B${tag}`, nameKana: "べ" });
  schoolId = (await createSchool(db(), { academyId: academy.id, name: `B${tag}`, nameKana: "べ" })).id;
  pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  writer = new AnswerWriter(async (sql, params, name) => (await pool.query({ name, text: sql, values: params })).rows);
  raw = new RawWriter(testDatabaseUrl());
});
afterAll(async () => {
  await raw?.end();
  await pool?.end();
  await db().$disconnect();
});

async function setting() {
  const tag = uniqueTag();
  const [app, base] = await Promise.all(
    [1, 2].map(
      async (number) =>
        (
          await createUser(db(), {
            role: "student",
            email: `bb${number}-${tag}@t.example`,
            schoolId,
            student: { grade: 2, className: tag.slice(0, 6), number },
          })
        ).id,
    ),
  );
  // a counterbalance group, which the row carries
  await db().studentDetail.updateMany({ where: { userId: { in: [app!, base!] } }, data: { counterbalanceGroup: "B" } });
  const activityId = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId, mode: "self" })
  ).id;
  const scenes = await db().activityScene.findMany({
    where: { activityId },
    orderBy: { position: "asc" },
    select: { id: true, type: true },
  });
  const groups = new Map(
    (
      await db().studentDetail.findMany({
        where: { userId: { in: [app!, base!] } },
        select: { userId: true, counterbalanceGroup: true },
      })
    ).map((d) => [d.userId, d.counterbalanceGroup]),
  );
  return { app: app!, base: base!, activityId, scenes, groups };
}

type Setting = Awaited<ReturnType<typeof setting>>;
const input = (s: Setting, sceneIndex: number, text: string, clientRevision: number): SaveAnswerInput => ({
  activityId: s.activityId,
  sceneId: s.scenes[sceneIndex]!.id,
  answer: { text },
  clientRevision,
  idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
  mode: "self",
});
const rawSave = (s: Setting, sceneIndex: number, i: SaveAnswerInput) => ({
  activityId: i.activityId,
  sceneId: i.sceneId,
  userId: s.base,
  answer: JSON.stringify(i.answer),
  position: sceneIndex,
  group: s.groups.get(s.base) ?? null,
  mode: i.mode,
  clientRevision: i.clientRevision,
  idempotencyKey: i.idempotencyKey,
});

/** The stored row without what differs by design (the respondent, the key, the times, the id). */
async function stored(userId: string, sceneId: string) {
  const { rows } = await pool.query(
    "select activity_id, scene_id, answer, scene_position, counterbalance_group, mode::text, session_id, client_revision from responses where user_id = $1 and scene_id = $2",
    [userId, sceneId],
  );
  return rows;
}

describe("the bench's baseline writes what the app's writer writes", () => {
  it("stores the same row for the same save, replaces it with a newer revision and keeps it against an older one", async () => {
    const s = await setting();
    const free = s.scenes.findIndex((x) => x.type === "free_text");
    for (const [text, revision] of [
      ["とける", 1],
      ["見えなくなる", 3],
      ["古い", 2],
    ] as const) {
      const i = input(s, free, text, revision);
      const saved = await writer.save(s.app, i);
      expect(saved.ok).toBe(true);
      await raw.save(rawSave(s, free, i));
      const [appRow, baseRow] = await Promise.all([stored(s.app, i.sceneId), stored(s.base, i.sceneId)]);
      expect(appRow).toHaveLength(1);
      expect(baseRow).toEqual(appRow);
    }
    expect((await stored(s.base, s.scenes[free]!.id))[0]).toMatchObject({
      client_revision: 3,
      answer: { text: "見えなくなる" },
    });
  });

  it("writes the saves of one turn of the event loop in one statement", async () => {
    const s = await setting();
    const free = s.scenes.findIndex((x) => x.type === "free_text");
    raw.resetStats();
    await Promise.all(
      [1, 2, 3].map((n) =>
        raw.save({
          ...rawSave(s, free, input(s, free, `t${n}`, n)),
          sceneId: s.scenes[free]!.id,
          userId: n === 1 ? s.base : n === 2 ? s.app : s.base,
        }),
      ),
    );
    // the third save is the base student's second save of the scene: the next statement, as in the writer
    expect(raw.meanBatch()).toBe(1.5);
  });
});
