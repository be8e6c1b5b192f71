/**
 * Learning records end to end against an LRS stub this test starts (a node:http server, real HTTP): a student's
 * answers, saved as the app saves them (the batching writer), become xAPI 1.0.3 statements — initialized, answered,
 * completed — published through the job queue (pg-boss in the test database), stored, and POSTed to the academy's LRS
 * with its Basic credentials; the LRS answering 503 once is tried again until it takes them. A statement the LRS
 * refuses for good (400) is parked with the LRS's answer, and the manager's view counts it. The manager's card reads
 * from indexes and the count of statements sent, and a batch two deliveries send at once is counted once; the count
 * taken again sets right what a server that did not count (the version before it) left short.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import validateStatement from "@learninglocker/xapi-validation";
import { db } from "@/platform/db";
import { jobQueue, setEventWanted, stopJobQueue } from "@/platform/queue/commands";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import { ANSWERS_WRITTEN } from "@/features/play/server/answer-events";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { setLrs } from "@/features/lti/server/lrs-commands";
import { getAcademyLrs, LRS_CARD_SQL } from "@/features/lti/server/lrs-queries";
import { deliverWaiting, recountSent } from "@/features/lti/server/xapi-deliver-commands";
import { startXapiWorkers } from "@/features/lti/server/xapi-queue";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { oneSceneActivity, until } from "../../../tests/support/lti-setup";
import { storedStatements, storeStatementRows } from "./xapi-class";

interface Received {
  status: number;
  headers: http.IncomingHttpHeaders;
  url: string;
  statements: Record<string, unknown>[];
}

/** An LRS: answers each POST with the status `script` gives (`delayMs` later) and keeps what it was sent. */
async function lrsStub(script: (statements: Record<string, unknown>[], n: number) => number, delayMs = 0) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const statements = JSON.parse(body) as Record<string, unknown>[];
      const status = script(statements, received.length);
      received.push({ status, headers: req.headers, url: req.url ?? "", statements });
      setTimeout(() => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(status === 200 ? JSON.stringify(statements.map((s) => s.id)) : JSON.stringify({ message: "refused" }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { received, endpoint: `http://127.0.0.1:${port}/xapi`, close: () => new Promise((r) => server.close(r)) };
}

/** An academy with an LRS at `endpoint`, a student with a sourcedId, and a self-paced activity of one keyed scene. */
async function setUp(endpoint: string) {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `X${tag}`, nameKana: "えっくす" });
  const school = (await createSchool(db(), { academyId: academy.id, name: `X${tag}`, nameKana: "えっくす" })).id;
  const student = await createUser(db(), {
    role: "student",
    email: `x-${tag}@t.example`,
    schoolId: school,
    name: `記録 ${tag}`,
    student: { grade: 1, className: "2", number: 1 },
  });
  const sourcedId = `stu-${tag}`;
  await db().user.update({ where: { id: student.id }, data: { sourcedId } });
  // one scene left: answering it completes the activity
  const { activity, choice } = await oneSceneActivity(db(), school);
  const set = await setLrs(
    academy.id,
    { endpoint, key: "lrs-key", secret: "lrs:secret", includeNames: false },
    {
      via: "cli",
    },
  );
  expect(set).toEqual({ ok: true, data: null });
  return { academyId: academy.id, student: student.id, sourcedId, activity, scene: choice.id };
}

const answer = (s: { activity: string; scene: string }, choice: string, clientRevision = 1) => ({
  activityId: s.activity,
  sceneId: s.scene,
  answer: { choice },
  clientRevision,
  idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
  mode: "self" as const,
});

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  await startXapiWorkers(await jobQueue(), 0.5, 1);
  setEventWanted(ANSWERS_WRITTEN, true);
});
afterAll(async () => {
  setEventWanted(ANSWERS_WRITTEN, false);
  await stopJobQueue();
  await db().$disconnect();
});

describe("learning records sent to the academy's LRS", () => {
  it("an LRS stub receives valid xAPI statements of a student's answers, also after answering 503 once", async () => {
    const lrs = await lrsStub((_, n) => (n === 0 ? 503 : 200));
    try {
      const s = await setUp(lrs.endpoint);
      await db().activity.update({ where: { id: s.activity }, data: { curriculumCode: "8260243111200000" } });
      await db().activityScene.update({ where: { id: s.scene }, data: { curriculumCode: "8260243111300000" } });
      expect(await saveAnswer(s.student, answer(s, "clear"))).toMatchObject({ ok: true, revision: 1 });
      const sent = await until(async () => {
        const rows = await storedStatements(s.activity);
        return rows.length === 3 && rows.every((r) => r.state === "sent") && rows;
      });
      expect(lrs.received[0]!.status).toBe(503);
      const delivered = lrs.received.filter((r) => r.status === 200).flatMap((r) => r.statements);
      expect(delivered.map((st) => st.id).sort()).toEqual(sent.map((r) => r.id).sort());
      expect(delivered.map((st) => (st.verb as { id: string }).id)).toEqual([
        "http://adlnet.gov/expapi/verbs/initialized",
        "http://adlnet.gov/expapi/verbs/answered",
        "http://adlnet.gov/expapi/verbs/completed",
      ]);
      for (const r of lrs.received) {
        expect(r.url).toBe("/xapi/statements");
        expect(r.headers.authorization).toBe(`Basic ${Buffer.from("lrs-key:lrs:secret").toString("base64")}`);
        expect(r.headers["x-experience-api-version"]).toBe("1.0.3");
      }
      for (const st of delivered) {
        expect(validateStatement(st)).toEqual([]);
        // the person is the academy's account named by the OneRoster sourcedId: no name, no e-mail
        expect(st.actor).toEqual({
          objectType: "Agent",
          account: {
            homePage: expect.stringMatching(new RegExp(`/xapi/academies/${s.academyId}$`)),
            name: s.sourcedId,
          },
        });
      }
      const registrations = new Set(delivered.map((st) => (st.context as { registration: string }).registration));
      expect(registrations.size).toBe(1);
      expect(delivered[1]!.result).toMatchObject({ response: JSON.stringify({ choice: "clear" }) });
      expect(delivered[2]!.result).toMatchObject({ completion: true });
      // the 学習指導要領コード: the scene's on its answer, the activity's on the attempt's start and completion
      const codeOf = (st: Record<string, unknown>) =>
        Object.entries((st.context as { extensions: Record<string, string> }).extensions).find(([iri]) =>
          iri.endsWith("/xapi/extensions/curriculum-code"),
        )?.[1];
      expect(delivered.map(codeOf)).toEqual(["8260243111200000", "8260243111300000", "8260243111200000"]);
      // the manager's card: the three counted as sent, and the 503 forgotten once they are
      expect(await getAcademyLrs(s.academyId)).toMatchObject({ waiting: 0, sent: 3, failed: 0, lastError: null });
    } finally {
      await lrs.close();
    }
  });

  it("a statement the LRS refuses for good (400) is parked with its answer, and the manager sees it", async () => {
    const lrs = await lrsStub(() => 400);
    try {
      const s = await setUp(lrs.endpoint);
      expect(await saveAnswer(s.student, answer(s, "cloudy"))).toMatchObject({ ok: true });
      await until(async () => {
        const rows = await storedStatements(s.activity);
        return rows.length === 3 && rows.every((r) => r.state === "parked" && /^400 /.test(r.lastError ?? ""));
      });
      expect(await getAcademyLrs(s.academyId)).toMatchObject({
        waiting: 0,
        sent: 0,
        failed: 3,
        lastError: expect.stringMatching(/^400 /),
      });
      // refused as a batch, then each alone: only the statement refused is parked
      expect(lrs.received.map((r) => r.statements.length)).toEqual([3, 1, 1, 1]);
    } finally {
      await lrs.close();
    }
  });

  it("the manager's card reads the parked and failed statements from their partial index, not every statement", async () => {
    const academyId = (await createAcademy(db(), { name: `C${uniqueTag()}`, nameKana: "かーど" })).id;
    const at = Date.parse("2026-11-30T09:00:00.000Z");
    const rows = Array.from({ length: 4 }, (_, n) => ({
      ...{ id: randomUUID(), academyId, activityId: randomUUID(), userId: randomUUID(), verb: "answered" },
      ...{ statement: { n }, createdAt: new Date(at + n * 1000) },
    }));
    await storeStatementRows(rows);
    // the first waits with the LRS's answer, the second is parked (made later: its answer is the newest), the third
    // failed without an answer, the fourth waits without one
    await db().xapiStatementWaiting.update({ where: { id: rows[0]!.id }, data: { lastError: "503 busy" } });
    for (const [row, outcome, lastError] of [
      [rows[1]!, "parked", "400 bad"],
      [rows[2]!, "failed", null],
    ] as const) {
      await db().$transaction([
        db().xapiStatement.update({ where: { id: row.id }, data: { outcome, lastError } }),
        db().xapiStatementWaiting.delete({ where: { id: row.id } }),
      ]);
    }
    const [card] = await db().$queryRawUnsafe<Record<string, unknown>[]>(LRS_CARD_SQL, academyId);
    expect(card).toEqual({ waiting: 2n, sent: 0n, failed: 2n, last_error: "400 bad" });
    const plan = await db().$transaction(async (tx) => {
      // as on a big table (the test's is small and not analysed)
      await tx.$executeRawUnsafe("set local enable_seqscan = off");
      return tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`explain ${LRS_CARD_SQL}`, academyId);
    });
    const text = plan.map((p) => p["QUERY PLAN"]).join("\n");
    // the parked and failed counted, and their last error found, each in the partial index; the waiting rows' last
    // error in theirs (not a walk back through every waiting row); no statement's row read but through them
    expect(text.match(/xapi_statements_outcome_idx/g)).toHaveLength(2);
    expect(text).toContain("xapi_statements_waiting_error_idx");
    expect(text).not.toMatch(/Seq Scan on xapi_statements |xapi_statements_pkey/);
  });

  it("a batch two deliveries send at once is counted once", async () => {
    // the LRS answers 1.5 s late: both deliveries have read the batch and posted it before either marks it sent
    const lrs = await lrsStub(() => 200, 1500);
    try {
      const s = await setUp(lrs.endpoint);
      await storeStatementRows(
        ["initialized", "answered", "completed"].map((verb, n) => ({
          ...{ id: randomUUID(), academyId: s.academyId, activityId: s.activity, userId: s.student, verb },
          ...{ statement: { verb }, createdAt: new Date(Date.now() + n) },
        })),
      );
      const end = Date.now() + 10_000;
      expect(await Promise.all([deliverWaiting(s.academyId, end), deliverWaiting(s.academyId, end)])).toEqual([
        true,
        true,
      ]);
      expect(lrs.received.map((r) => r.statements.length)).toEqual([3, 3]);
      expect(await getAcademyLrs(s.academyId)).toMatchObject({ waiting: 0, sent: 3, failed: 0, lastError: null });
    } finally {
      await lrs.close();
    }
  });

  it("the count taken again: statements a server of the version before sent without counting are counted, a count with no statement sent behind it goes", async () => {
    const [a, b] = [
      (await createAcademy(db(), { name: `R${uniqueTag()}`, nameKana: "あーる" })).id,
      (await createAcademy(db(), { name: `R${uniqueTag()}`, nameKana: "あーる" })).id,
    ];
    const rows = Array.from({ length: 4 }, (_, n) => ({
      ...{ id: randomUUID(), academyId: a, activityId: randomUUID(), userId: randomUUID(), verb: "answered" },
      statement: { n },
    }));
    await storeStatementRows(rows);
    // the first two sent: one by this version (counted), one by the version before (its waiting row deleted, no
    // count); the third parked; the fourth still waiting. Academy b's count has no statement behind it.
    await db().$executeRawUnsafe(`delete from xapi_statements_waiting where id = any($1::uuid[])`, [
      rows[0]!.id,
      rows[1]!.id,
      rows[2]!.id,
    ]);
    await db().xapiStatement.update({ where: { id: rows[2]!.id }, data: { outcome: "parked", lastError: "400 bad" } });
    await db().$executeRawUnsafe(
      `insert into xapi_sent_counts (academy_id, sent) values ($1::uuid, 1), ($2::uuid, 5)`,
      a,
      b,
    );
    const card = (academyId: string) => db().$queryRawUnsafe<Record<string, unknown>[]>(LRS_CARD_SQL, academyId);
    expect((await card(a))[0]).toMatchObject({ waiting: 1n, sent: 1n, failed: 1n });

    const counted = await recountSent();
    expect(counted.academies).toBeGreaterThanOrEqual(1);
    expect((await card(a))[0]).toMatchObject({ waiting: 1n, sent: 2n, failed: 1n });
    expect((await card(b))[0]).toMatchObject({ waiting: 0n, sent: 0n, failed: 0n });
    // taken twice, the same
    await recountSent();
    expect((await card(a))[0]).toMatchObject({ sent: 2n });
  });
});
