/**
 * One student's input never costs another student an answer: answers PostgreSQL
 * would refuse are refused up front with a 400 that says what to fix, and a
 * batch statement that still fails is retried in parts, so that only the row
 * the database refuses fails. Both drivers the writer runs over: node-postgres
 * (the production endpoint) and Prisma (the route handler).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { AnswerWriter, type Query } from "@/features/play/server/answer-writer";
import type { SaveAnswerInput } from "@/features/play/shared/answer-schema";
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
let schoolId: string;
const drivers: Record<string, () => Query> = {
  "node-postgres": () => async (sql, params, name) => (await pool.query({ name, text: sql, values: params })).rows,
  prisma: () => (sql, params) => db().$queryRawUnsafe(sql, ...params),
};

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `I${tag}`, nameKana: "あい" });
  schoolId = (await createSchool(db(), { academyId: academy.id, name: `I${tag}`, nameKana: "あい" })).id;
  pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await db().$disconnect();
});

/** A class of `n` students and an activity of its own: its free-text and two-step scenes. */
let classes = 0;
async function classroom(n: number) {
  const tag = uniqueTag();
  const className = String(++classes); // a class of its own: one student per seat
  const students = await Promise.all(
    Array.from(
      { length: n },
      async (_, i) =>
        (
          await createUser(db(), {
            role: "student",
            email: `iso${i}-${tag}@t.example`,
            schoolId,
            student: { grade: 1, className, number: i + 1 },
          })
        ).id,
    ),
  );
  const activityId = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId, mode: "self" })
  ).id;
  const scenes = await db().activityScene.findMany({
    where: { activityId },
    orderBy: { position: "asc" },
    select: { id: true, type: true },
  });
  const free = scenes.find((s) => s.type === "free_text")!.id;
  const twoStep = scenes.find((s) => s.type === "two_step")!.id;
  const input = (patch: Partial<SaveAnswerInput>): SaveAnswerInput => ({
    activityId,
    sceneId: free,
    answer: { text: "とけて見えなくなる" },
    clientRevision: 1,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "self",
    ...patch,
  });
  return { students, activityId, free, twoStep, input };
}

const POISONS: [string, (c: Awaited<ReturnType<typeof classroom>>) => Partial<SaveAnswerInput>, string][] = [
  ["NUL in a free text", (c) => ({ sceneId: c.free, answer: { text: "とけ\u0000る" } }), "invalidCharacters"],
  ["a lone high surrogate", (c) => ({ sceneId: c.free, answer: { text: "とける\uD83D" } }), "invalidCharacters"],
  ["a lone low surrogate", (c) => ({ sceneId: c.free, answer: { text: "\uDE00とける" } }), "invalidCharacters"],
  [
    "NUL in a two-step reason",
    (c) => ({ sceneId: c.twoStep, answer: { first: "more", second: "sure", reason: "\u0000" } }),
    "invalidCharacters",
  ],
  [
    "a free text over the scene's length",
    (c) => ({ sceneId: c.free, answer: { text: "あ".repeat(10_001) } }),
    "tooLong",
  ],
];

for (const [driver, query] of Object.entries(drivers)) {
  describe(`a bad answer among classmates' (${driver})`, () => {
    for (const [name, poison, reason] of POISONS) {
      it(`${name}: refused with 400 ${reason}, every classmate's answer stored`, async () => {
        const c = await classroom(12);
        const writer = new AnswerWriter(query());
        const [bad, ...good] = c.students;
        const results = await Promise.all([
          ...good.map((id, i) => writer.save(id, c.input({ answer: { text: `答え${i} 😀` } }))),
          writer.save(bad!, c.input(poison(c))),
        ]);
        expect(results.slice(0, -1).every((r) => r.ok && r.revision === 1)).toBe(true);
        expect(results.at(-1)).toEqual({ ok: false, status: 400, code: "VALIDATION", reason });
        const rows = await db().response.findMany({
          where: { activityId: c.activityId },
          select: { userId: true, answer: true },
        });
        expect(rows).toHaveLength(good.length);
        expect(rows.find((r) => r.userId === bad)).toBeUndefined();
        expect(rows.find((r) => r.userId === good[3])?.answer).toEqual({ text: "答え3 😀" });
      });
    }

    it("a row the database still refuses: the batch is retried in parts, only that row fails (400), the rest are stored once", async () => {
      const c = await classroom(17);
      const real = query();
      let statements = 0;
      // a row that passed every check but the database refuses: its answer becomes JSON that jsonb cannot store
      const forced: Query = (sql, params, name) => {
        statements += 1;
        if (name !== "manabiya_answer_save") return real(sql, params, name);
        const answers = (params[5] as string[]).map((a) => (a.includes("POISON") ? '{"text":"\\u0000"}' : a));
        return real(sql, [...params.slice(0, 5), answers, ...params.slice(6)], name);
      };
      const writer = new AnswerWriter(forced);
      const results = await Promise.all(
        c.students.map((id, i) => writer.save(id, c.input({ answer: { text: i === 9 ? "POISON" : `答え${i}` } }))),
      );
      expect(results[9]).toEqual({ ok: false, status: 400, code: "VALIDATION", reason: "invalidAnswer" });
      expect(results.filter((r) => r.ok && r.revision === 1 && !r.stale)).toHaveLength(16);
      expect(await db().response.count({ where: { activityId: c.activityId } })).toBe(16);
      // one batch, then halves down to the bad row: a handful of statements, not one per row
      expect(statements).toBeLessThanOrEqual(2 + 2 * Math.ceil(Math.log2(17)) + 1);
    });

    it("a database that is away fails the whole batch as 'try again' (never a 400)", async () => {
      const c = await classroom(3);
      const down: Query = () =>
        Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }));
      const writer = new AnswerWriter(down);
      const results = await Promise.allSettled(c.students.map((id) => writer.save(id, c.input({}))));
      expect(results.every((r) => r.status === "rejected")).toBe(true);
    });
  });
}
