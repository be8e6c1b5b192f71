/**
 * The answer endpoint fuzzed: concurrent batches of
 * requests from a class, with arbitrary strings (NUL, lone surrogates, any
 * code point), arbitrary JSON answers, bodies and numbers, sent over HTTP to
 * the production endpoint (features/play/server/answer-endpoint.ts). Never a 5xx; every
 * valid answer is stored; every acknowledged answer is in the database
 * exactly once, as sent; a refused one changes nothing.
 */
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/platform/db";
import { createAnswerEndpoint } from "@/features/play/server/answer-endpoint";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { serveEndpoint, testDatabaseUrl } from "../../../tests/support/helpers";
import { sessionCookieOf } from "../../../tests/support/next-headers-fake";

const CLASS = 10;
let server: http.Server;
let endpoint: ReturnType<typeof createAnswerEndpoint>;
let port: number;
let activityId: string;
let scenes: { free: string; twoStep: string; choice: string };
const students: { id: string; cookie: string }[] = [];

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `Z${tag}`, nameKana: "ぜっと" });
  const schoolId = (await createSchool(db(), { academyId: academy.id, name: `Z${tag}`, nameKana: "ぜっと" })).id;
  for (let n = 0; n < CLASS; n++) {
    const id = (
      await createUser(db(), {
        role: "student",
        email: `fz${n}-${tag}@t.example`,
        schoolId,
        student: { grade: 3, className: "1", number: n + 1 },
      })
    ).id;
    students.push({ id, cookie: await sessionCookieOf(id, "student") });
  }
  activityId = (await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId, mode: "self" })).id;
  const rows = await db().activityScene.findMany({ where: { activityId }, select: { id: true, type: true } });
  scenes = {
    free: rows.find((s) => s.type === "free_text")!.id,
    twoStep: rows.find((s) => s.type === "two_step")!.id,
    choice: rows.find((s) => s.type === "single_choice")!.id,
  };
  endpoint = createAnswerEndpoint({
    databaseUrl: testDatabaseUrl(),
    authSecret: process.env.AUTH_SECRET!,
    production: false,
    poolSize: 2,
  });
  ({ server, port } = await serveEndpoint(endpoint));
});
afterAll(async () => {
  server?.close();
  await endpoint?.close();
  await db().$disconnect();
});

// any code point, plus what PostgreSQL refuses: NUL and lone surrogates
const nasty = fc.string({
  unit: fc.oneof(
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    fc.constantFrom("\u0000", "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "😀"),
  ),
  maxLength: 60,
});
// what a student may type: any code point but NUL, well-formed, within the scene's 400
const typed = fc
  .string({ unit: "binary", maxLength: 400 })
  .map((s) => s.replace(/\u0000/g, "").slice(0, 400))
  .filter((s) => s.isWellFormed());

type Sent = { valid: boolean; sceneId: string; answer: unknown; body: string | null };
const request = (n: number) =>
  fc
    .oneof(
      typed.map((text) => ({ valid: true, sceneId: scenes.free, answer: { text } })),
      typed
        .filter((s) => s.trim() !== "")
        .map((reason) => ({
          valid: true,
          sceneId: scenes.twoStep,
          answer: { first: "less", second: "maybe", reason },
        })),
      nasty.map((text) => ({ valid: false, sceneId: scenes.free, answer: { text } })),
      nasty.map((reason) => ({
        valid: false,
        sceneId: scenes.twoStep,
        answer: { first: "more", second: "sure", reason },
      })),
      fc.jsonValue({ maxDepth: 6 }).map((answer) => ({ valid: false, sceneId: scenes.choice, answer })),
      fc.record({ choice: nasty }).map((answer) => ({ valid: false, sceneId: scenes.choice, answer })),
      fc
        .oneof(
          nasty,
          fc.jsonValue().map((v) => JSON.stringify(v)),
        )
        .map((body) => ({ valid: false, sceneId: scenes.free, answer: null, body })),
      fc
        .record({
          activityId: nasty,
          clientRevision: fc.oneof(fc.double(), fc.integer(), fc.bigInt().map(String)),
          mode: nasty,
        })
        .map((junk) => ({
          valid: false,
          sceneId: scenes.free,
          answer: { text: "x" },
          body: JSON.stringify({
            sceneId: scenes.free,
            answer: { text: "x" },
            idempotencyKey: `k${n}aaaaaaaa`,
            ...junk,
          }),
        })),
    )
    .map((s): Sent => ({ body: null, ...s }));

let revision = 0;

it("concurrent batches of arbitrary answers: no 5xx, every valid answer stored, each acknowledged one exactly once", async () => {
  const stored = new Map<string, { answer: unknown; revision: number }>();
  await fc.assert(
    fc.asyncProperty(fc.array(request(0), { minLength: CLASS, maxLength: CLASS }), async (sent) => {
      revision += 1;
      const replies = await Promise.all(
        sent.map(async (s, i) => {
          const body =
            s.body ??
            JSON.stringify({
              activityId,
              sceneId: s.sceneId,
              answer: s.answer,
              clientRevision: revision,
              idempotencyKey: `k${uniqueTag()}${i}`,
              mode: "self",
            });
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/answers`, {
            method: "POST",
            body,
            headers: { "content-type": "application/json", cookie: students[i]!.cookie },
          });
          return {
            status: res.status,
            body: (await res.json()) as { ok: boolean; revision?: number; stale?: boolean; reason?: string },
          };
        }),
      );
      for (const [i, reply] of replies.entries()) {
        const s = sent[i]!;
        expect(reply.status, JSON.stringify({ s, reply })).toBeLessThan(500);
        if (s.valid)
          expect(reply, JSON.stringify(s)).toMatchObject({ status: 200, body: { ok: true, revision, stale: false } });
        if (reply.status === 200 && reply.body.stale === false)
          stored.set(`${students[i]!.id}/${s.sceneId}`, { answer: s.answer, revision });
        else expect(reply.status === 200 || [400, 404, 409, 413].includes(reply.status)).toBe(true);
      }
      const rows = await db().response.findMany({
        where: { activityId },
        select: { userId: true, sceneId: true, answer: true, clientRevision: true },
      });
      expect(rows).toHaveLength(stored.size);
      for (const row of rows)
        expect({ answer: row.answer, revision: row.clientRevision }).toEqual(
          stored.get(`${row.userId}/${row.sceneId}`),
        );
    }),
    { numRuns: 60 },
  );
});
