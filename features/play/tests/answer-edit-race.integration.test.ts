/**
 * An answer is stored under the content it was checked against (features/activities/README.md
 * "Activity editor": answers keep their meaning). The editor locks a scene row, changes it
 * and commits while an answer to it is on its way to the database: the answer must then be
 * checked again against the new content, never stored as if it had answered it.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/platform/db";
import { AnswerWriter } from "@/features/play/server/answer-writer";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { testDatabaseUrl } from "../../../tests/support/helpers";

let pool: pg.Pool;
let editor: pg.Client;
beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2, application_name: "answer-race-writer" });
  editor = new pg.Client({ connectionString: testDatabaseUrl() });
  await editor.connect();
});
afterAll(async () => {
  await editor?.end();
  await pool?.end();
  await db().$disconnect();
});

it("an answer written while the scene is being edited is checked again against the edited scene (a first answer and a changed one)", async () => {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `R${tag}`, nameKana: "あーる" });
  const schoolId = (await createSchool(db(), { academyId: academy.id, name: `R${tag}`, nameKana: "あーる" })).id;
  const [again, first] = await Promise.all(
    [1, 2].map(
      async (number) =>
        (
          await createUser(db(), {
            role: "student",
            email: `race${number}-${tag}@t.example`,
            schoolId,
            student: { grade: 1, className: "1", number },
          })
        ).id,
    ),
  );
  const activityId = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId, mode: "self" })
  ).id;
  const sceneId = (
    await db().activityScene.findFirstOrThrow({ where: { activityId, type: "free_text" }, select: { id: true } })
  ).id;
  const writer = new AnswerWriter(
    async (sql, params, name) => (await pool.query({ name, text: sql, values: params })).rows,
  );
  const input = (text: string, clientRevision: number) => ({
    activityId,
    sceneId,
    answer: { text },
    clientRevision,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "self" as const,
  });
  // one student has answered already (and the writer has learnt the scene as it is now)
  expect(await writer.save(again!, input("とける", 1))).toMatchObject({ ok: true, revision: 1 });

  // the editor, as features/activities/server/scene-commands.ts does it: lock the row, change it, not yet committed
  await editor.query("begin");
  await editor.query("select id from activity_scenes where id = $1 for update", [sceneId]);
  await editor.query(`update activity_scenes set content = content || '{"maxLength": 5}'::jsonb where id = $1`, [
    sceneId,
  ]);
  const settled = new Set<string>();
  const saving = [
    writer.save(again!, input("水にとけて見えなくなった", 2)),
    writer.save(first!, input("水にとけて消えた", 1)),
  ].map((p, i) => p.finally(() => settled.add(String(i))));
  // each save is either waiting on the editor's lock or done (the bug: stored under the old content)
  const waiting = async () =>
    (
      await editor.query(
        "select count(*)::int as n from pg_stat_activity where application_name = 'answer-race-writer' and wait_event_type = 'Lock'",
      )
    ).rows[0].n as number;
  await expect.poll(async () => (await waiting()) + settled.size, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  await editor.query("commit");

  // checked against the scene as edited (at most 5 characters): both refused, the earlier answer kept
  expect(await Promise.all(saving)).toEqual([
    expect.objectContaining({ ok: false, status: 400, reason: "tooLong" }),
    expect.objectContaining({ ok: false, status: 400, reason: "tooLong" }),
  ]);
  const stored = await db().response.findMany({
    where: { sceneId },
    select: { userId: true, answer: true, clientRevision: true },
  });
  expect(stored).toEqual([{ userId: again, answer: { text: "とける" }, clientRevision: 1 }]);
});
