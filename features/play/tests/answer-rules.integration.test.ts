/**
 * The two rules every path that saves an answer keeps (the production server's endpoint, the
 * Next.js route handler, and a batch of saves written by one statement): an answer whose verdict
 * or key its respondent has been shown is final, and a countdown that closes answers closes them
 * on the server. The paths share one implementation (features/play/shared/answer-writer-sql.ts); each is
 * exercised here as a student's browser would reach it.
 */
import http from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));

import { db } from "@/platform/db";
import { goToScene, startSession } from "@/features/play/server/session-commands";
import { setRetries } from "@/features/activities/server/commands";
import { loadForRespondent, loadOwnFeedback } from "@/features/play/server/answer-queries";
import { createAnswerEndpoint } from "@/features/play/server/answer-endpoint";
import { answerRoute } from "@/features/play/server/answer-route";
import type { SaveAnswerInput } from "@/features/play/shared/answer-schema";
import { AnswerWriter } from "@/features/play/server/answer-writer";
import { TIMER_GRACE_SECONDS } from "@/features/play/shared/answer-writer-sql";
import { researchRows } from "@/features/results/server/export-queries";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createActivityFromTemplate, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { postToEndpoint, replyOf, routeRequest, serveEndpoint, testDatabaseUrl } from "../../../tests/support/helpers";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";
import { twoSchools } from "../../../tests/support/two-schools";

const HOST = "school.example";
let server: http.Server;
let endpoint: ReturnType<typeof createAnswerEndpoint>;
let port: number;
let batchPool: pg.Pool;
let batchWriter: AnswerWriter;
const ids = {} as {
  school: AuthorizedSchoolId;
  teacher: string;
  self: string;
  guide: string;
  keyed: string;
  open: string;
  guideScene: string;
  retry: string;
  retryScene: string;
};

const keyed = (content: unknown, correct: string[]) =>
  JSON.parse(JSON.stringify(content), (_k, v: unknown) =>
    v && typeof v === "object" && "id" in v && "label" in v && correct.includes((v as { id: string }).id)
      ? { ...v, correct: true }
      : v,
  );

beforeAll(async () => {
  const { tag, school } = await twoSchools();
  ids.school = school.id as AuthorizedSchoolId;
  ids.teacher = (await createUser(db(), { role: "teacher", email: `rt-${tag}@t.example`, schoolId: school.id })).id;
  ids.self = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school.id, mode: "self" })
  ).id;
  ids.guide = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school.id, mode: "standby" })
  ).id;
  await db().activity.update({ where: { id: ids.self }, data: { feedback: "after_answer" } });
  const scenes = await db().activityScene.findMany({
    where: { activityId: ids.self, type: "single_choice" },
    orderBy: { position: "asc" },
    select: { id: true, content: true },
  });
  // the first single-choice scene has a key ("clear" is correct), the second none (nothing to reveal)
  await db().activityScene.update({
    where: { id: scenes[0]!.id },
    data: { content: keyed(scenes[0]!.content, ["clear"]) },
  });
  ids.keyed = scenes[0]!.id;
  ids.open = scenes[1]?.id ?? scenes[0]!.id;
  // a copy whose teacher allows retries
  ids.retry = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school.id, mode: "self" })
  ).id;
  expect(await setRetries({ schoolId: ids.school, actorId: ids.teacher }, ids.retry, true)).toEqual({
    ok: true,
    data: null,
  });
  await db().activity.update({ where: { id: ids.retry }, data: { feedback: "after_answer" } });
  const retryScene = await db().activityScene.findFirstOrThrow({
    where: { activityId: ids.retry, type: "single_choice" },
    orderBy: { position: "asc" },
    select: { id: true, content: true },
  });
  await db().activityScene.update({
    where: { id: retryScene.id },
    data: { content: keyed(retryScene.content, ["clear"]) },
  });
  ids.retryScene = retryScene.id;
  ids.guideScene = (
    await db().activityScene.findFirstOrThrow({
      where: { activityId: ids.guide, type: "single_choice" },
      orderBy: { position: "asc" },
      select: { id: true },
    })
  ).id;
  expect(await startSession({ schoolId: ids.school, actorId: ids.teacher }, ids.guide)).toMatchObject({ ok: true });
  expect(await goToScene({ schoolId: ids.school, actorId: ids.teacher }, ids.guide, ids.guideScene)).toEqual({
    ok: true,
    data: null,
  });

  endpoint = createAnswerEndpoint({
    databaseUrl: testDatabaseUrl(),
    authSecret: process.env.AUTH_SECRET!,
    production: true,
    poolSize: 2,
  });
  ({ server, port } = await serveEndpoint(endpoint));
  batchPool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  // saves gather for 50 ms: the ones sent together are checked and written by one statement
  batchWriter = new AnswerWriter(async (sql, params) => (await batchPool.query(sql, params)).rows, { gatherMs: 50 });
});
afterAll(async () => {
  server?.close();
  await endpoint?.close();
  await batchWriter?.drain();
  await batchPool?.end();
  await db().$disconnect();
});

let seats = 0;
async function newStudent() {
  seats += 1;
  return (
    await createUser(db(), {
      role: "student",
      email: `rs-${uniqueTag()}@t.example`,
      schoolId: ids.school,
      student: { grade: 1, className: "1", number: seats },
    })
  ).id;
}

type Reply = { status: number; body: Record<string, unknown> };
type Post = (userId: string, input: SaveAnswerInput) => Promise<Reply>;

const viaEndpoint: Post = async (userId, input) =>
  postToEndpoint(port, HOST, "/api/v1/answers", await sessionCookieOf(userId, "student"), {
    body: JSON.stringify(input),
  });
const viaRoute: Post = async (userId, input) => {
  session.cookie = await sessionCookieOf(userId, "student");
  return replyOf(
    await answerRoute(routeRequest(HOST, "/api/v1/answers", session.cookie, { body: JSON.stringify(input) })),
  );
};
/** The save sent with two of other students to an open scene (one statement checks all three); its own reply. */
const inBatch: Post = async (userId, input) => {
  const others = [await newStudent(), await newStudent()];
  const [own, ...rest] = await Promise.all([
    batchWriter.save(userId, input),
    ...others.map((o) => batchWriter.save(o, selfAnswer(ids.open, "clear", 1))),
  ]);
  // the others are stored by the same batch, whatever becomes of this one
  for (const r of rest) expect(r).toMatchObject({ ok: true });
  return { status: own!.ok ? 200 : own!.status, body: own as unknown as Record<string, unknown> };
};
const PATHS: [string, Post][] = [
  ["the production endpoint", viaEndpoint],
  ["the route handler", viaRoute],
  ["a batched save", inBatch],
];

const key = () => `k${uniqueTag()}${uniqueTag()}`;
const selfAnswer = (
  sceneId: string,
  choice: string,
  clientRevision: number,
  idempotencyKey = key(),
): SaveAnswerInput => ({
  activityId: ids.self,
  sceneId,
  answer: { choice },
  clientRevision,
  idempotencyKey,
  mode: "self",
});
const guideAnswer = (choice: string, clientRevision: number): SaveAnswerInput => ({
  activityId: ids.guide,
  sceneId: ids.guideScene,
  answer: { choice },
  clientRevision,
  idempotencyKey: key(),
  mode: "guide",
});
const stored = (userId: string, sceneId: string) =>
  db().response.findUniqueOrThrow({
    where: { userId_sceneId: { userId, sceneId } },
    select: { answer: true, late: true, clientRevision: true },
  });
/** The research export's lines of one student (they carry the user id). */
const exported = async (userId: string) => {
  let csv = "";
  for await (const chunk of researchRows(ids.school, ids.self, false, "ja")) csv += chunk;
  return csv
    .split("\r\n")
    .filter((line) => line.includes(userId))
    .join("\n");
};

describe("an answer whose verdict or key was shown is final", () => {
  for (const [path, post] of PATHS) {
    it(`${path}: a change after the key was shown is refused (409 answerFinal); the answer shown stays the one stored and marked`, async () => {
      const student = await newStudent();
      const first = selfAnswer(ids.keyed, "cloudy", 1);
      expect(await post(student, first)).toMatchObject({ status: 200, body: { ok: true, revision: 1 } });
      // before the key is shown, the answer may still change
      expect(await post(student, selfAnswer(ids.keyed, "cloudy", 2))).toMatchObject({
        status: 200,
        body: { ok: true, revision: 2 },
      });
      // 答え合わせ: the verdict and the correct option are shown (and recorded on the server)
      expect(await loadOwnFeedback({ id: student, schoolId: ids.school }, ids.self, { finished: false })).toEqual({
        [ids.keyed]: { verdict: "incorrect", correct: ["clear"] },
      });

      expect(await post(student, selfAnswer(ids.keyed, "clear", 3))).toMatchObject({
        status: 409,
        body: { ok: false, code: "CONFLICT", reason: "answerFinal" },
      });
      expect(await stored(student, ids.keyed)).toMatchObject({ answer: { choice: "cloudy" }, clientRevision: 2 });
      expect(await loadOwnFeedback({ id: student, schoolId: ids.school }, ids.self, { finished: false })).toEqual({
        [ids.keyed]: { verdict: "incorrect", correct: ["clear"] },
      });
      // a scene whose key was never shown still takes changes
      if (ids.open !== ids.keyed) {
        expect(await post(student, selfAnswer(ids.open, "clear", 1))).toMatchObject({ status: 200 });
        expect(await post(student, selfAnswer(ids.open, "cloudy", 2))).toMatchObject({
          status: 200,
          body: { revision: 2 },
        });
      }
    });
  }

  it("the export has the answer that was shown, not the refused change", async () => {
    const student = await newStudent();
    expect(await viaEndpoint(student, selfAnswer(ids.keyed, "cloudy", 1))).toMatchObject({ status: 200 });
    await loadOwnFeedback({ id: student, schoolId: ids.school }, ids.self, { finished: false });
    expect(await viaRoute(student, selfAnswer(ids.keyed, "clear", 2))).toMatchObject({ status: 409 });
    const rows = await exported(student);
    expect(rows).toContain("cloudy");
    expect(rows).not.toContain("clear");
  });

  it("a retry of the very save that was stored before the key was shown is answered as before (200, not stale)", async () => {
    const student = await newStudent();
    const first = selfAnswer(ids.keyed, "clear", 1);
    expect(await viaEndpoint(student, first)).toMatchObject({ status: 200 });
    await loadOwnFeedback({ id: student, schoolId: ids.school }, ids.self, { finished: false });
    for (const post of [viaEndpoint, viaRoute, inBatch])
      expect(await post(student, first)).toMatchObject({ status: 200, body: { ok: true, revision: 1, stale: false } });
  });

  // last in this block: it edits the shared keyed scene
  it("an answer shown under an earlier version of its scene does not lock the edited question: it is answered anew, and locked once shown", async () => {
    const student = await newStudent();
    expect(await viaEndpoint(student, selfAnswer(ids.keyed, "cloudy", 1))).toMatchObject({ status: 200 });
    await loadOwnFeedback({ id: student, schoolId: ids.school }, ids.self, { finished: false });
    await db().activityScene.update({ where: { id: ids.keyed }, data: { version: { increment: 1 } } });
    expect(await viaRoute(student, selfAnswer(ids.keyed, "clear", 2))).toMatchObject({
      status: 200,
      body: { ok: true, revision: 2 },
    });
    expect(await stored(student, ids.keyed)).toMatchObject({ answer: { choice: "clear" }, clientRevision: 2 });
    expect(await loadOwnFeedback({ id: student, schoolId: ids.school }, ids.self, { finished: false })).toEqual({
      [ids.keyed]: { verdict: "correct", correct: ["clear"] },
    });
    expect(await inBatch(student, selfAnswer(ids.keyed, "cloudy", 3))).toMatchObject({
      status: 409,
      body: { reason: "answerFinal" },
    });
  });
});

describe("a countdown that closes answers closes them on the server", () => {
  const setTimer = (endsInMs: number, locks: boolean) =>
    db().guideSession.updateMany({
      where: { activityId: ids.guide, endedAt: null },
      data: {
        timerSceneId: ids.guideScene,
        timerEndsAt: new Date(Date.now() + endsInMs),
        timerSeconds: 30,
        timerLocks: locks,
      },
    });

  for (const [path, post] of PATHS) {
    it(`${path}: past zero and the grace a save is refused (409 timeUp); the on-time answer stays, not late`, async () => {
      const student = await newStudent();
      await setTimer(30_000, true);
      expect(await post(student, guideAnswer("cloudy", 1))).toMatchObject({ status: 200 });
      await setTimer(-(TIMER_GRACE_SECONDS * 1000 + 5_000), true);
      expect(await post(student, guideAnswer("clear", 2))).toMatchObject({
        status: 409,
        body: { ok: false, code: "CONFLICT", reason: "timeUp" },
      });
      expect(await stored(student, ids.guideScene)).toEqual({
        answer: { choice: "cloudy" },
        late: false,
        clientRevision: 1,
      });
      // nothing new either: a first answer after the close is refused as well
      const late = await newStudent();
      expect(await post(late, guideAnswer("clear", 1))).toMatchObject({ status: 409, body: { reason: "timeUp" } });
      expect(await db().response.count({ where: { userId: late } })).toBe(0);
    });
  }

  it("a save in flight at zero (within the grace) is on time; a countdown that does not close answers takes later changes, marked late", async () => {
    const student = await newStudent();
    await setTimer(-500, true);
    expect(await viaEndpoint(student, guideAnswer("cloudy", 1))).toMatchObject({ status: 200 });
    expect(await stored(student, ids.guideScene)).toMatchObject({ late: false });
    await setTimer(-(TIMER_GRACE_SECONDS * 1000 + 5_000), false);
    expect(await viaRoute(student, guideAnswer("clear", 2))).toMatchObject({ status: 200 });
    expect(await stored(student, ids.guideScene)).toMatchObject({ answer: { choice: "clear" }, late: true });
  });
});

describe("retries allowed: every attempt is kept, the first one is marked", () => {
  const retryAnswer = (choice: string, clientRevision: number, idempotencyKey = key()): SaveAnswerInput => ({
    activityId: ids.retry,
    sceneId: ids.retryScene,
    answer: { choice },
    clientRevision,
    idempotencyKey,
    mode: "self",
  });
  const me = (id: string) => ({ id, role: "student" as const, schoolId: ids.school });

  for (const [path, post] of PATHS) {
    it(`${path}: after the key was shown a new answer is kept as an attempt; the answer shown stays the one marked`, async () => {
      const student = await newStudent();
      expect(await post(student, retryAnswer("cloudy", 1))).toMatchObject({ status: 200 });
      expect(await loadOwnFeedback(me(student), ids.retry, { finished: false })).toEqual({
        [ids.retryScene]: { verdict: "incorrect", correct: ["clear"] },
      });
      const second = retryAnswer("clear", 2);
      expect(await post(student, second)).toMatchObject({ status: 200, body: { ok: true, revision: 2, stale: false } });
      // its retry (the same save again) is answered alike and kept once
      expect(await post(student, second)).toMatchObject({ status: 200, body: { ok: true, revision: 2, stale: false } });
      expect(await post(student, retryAnswer("colored", 3))).toMatchObject({
        status: 200,
        body: { ok: true, revision: 3 },
      });

      expect(await stored(student, ids.retryScene)).toMatchObject({ answer: { choice: "cloudy" }, clientRevision: 1 });
      const attempts = await db().responseAttempt.findMany({
        where: { response: { userId: student, sceneId: ids.retryScene } },
        orderBy: { clientRevision: "asc" },
        select: { answer: true, clientRevision: true },
      });
      expect(attempts).toEqual([
        { answer: { choice: "clear" }, clientRevision: 2 },
        { answer: { choice: "colored" }, clientRevision: 3 },
      ]);
      expect(await loadOwnFeedback(me(student), ids.retry, { finished: false })).toEqual({
        [ids.retryScene]: { verdict: "incorrect", correct: ["clear"] },
      });
      // the player goes on from the latest attempt, and the scene is not final
      const mine = (await loadForRespondent(me(student), ids.retry))!;
      expect(mine.toPlay[ids.retryScene]).toEqual({ answer: { choice: "colored" }, revision: 3 });
      expect(mine.finalScenes).toEqual([]);
    });
  }

  it("the setting is the school's teacher's to change, and audited", async () => {
    const tag = uniqueTag();
    const { school: otherSchool } = await twoSchools();
    const stranger = (
      await createUser(db(), { role: "teacher", email: `rx-${tag}@t.example`, schoolId: otherSchool.id })
    ).id;
    expect(
      await setRetries({ schoolId: otherSchool.id as AuthorizedSchoolId, actorId: stranger }, ids.retry, false),
    ).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(
      (await db().activity.findUniqueOrThrow({ where: { id: ids.retry }, select: { allowRetries: true } }))
        .allowRetries,
    ).toBe(true);
    expect(
      await db().auditLog.count({
        where: { action: "activity.retries", targetId: ids.retry, actorId: ids.teacher, schoolId: ids.school },
      }),
    ).toBe(1);
  });
});
