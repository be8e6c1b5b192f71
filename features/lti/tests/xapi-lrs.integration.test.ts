/**
 * Learning records end to end against an LRS stub this test starts (a node:http server, real HTTP): a student's
 * answers, saved as the app saves them (the batching writer), become xAPI 1.0.3 statements — initialized, answered,
 * completed — published through the job queue (pg-boss in the test database), stored, and POSTed to the academy's LRS
 * with its Basic credentials; the LRS answering 503 once is tried again until it takes them. A statement the LRS
 * refuses for good (400) is parked with the LRS's answer, and the manager's view counts it.
 */
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
import { getAcademyLrs } from "@/features/lti/server/lrs-queries";
import { startXapiWorkers } from "@/features/lti/server/xapi-queue";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { oneSceneActivity, until } from "../../../tests/support/lti-setup";
import { storedStatements } from "./xapi-class";

interface Received {
  status: number;
  headers: http.IncomingHttpHeaders;
  url: string;
  statements: Record<string, unknown>[];
}

/** An LRS: answers each POST with the next of `script` (then 200 for ever) and keeps what it was sent. */
async function lrsStub(script: (statements: Record<string, unknown>[], n: number) => number) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const statements = JSON.parse(body) as Record<string, unknown>[];
      const status = script(statements, received.length);
      received.push({ status, headers: req.headers, url: req.url ?? "", statements });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(status === 200 ? JSON.stringify(statements.map((s) => s.id)) : JSON.stringify({ message: "refused" }));
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
});
