/**
 * A worker that dies holding a job (pg-boss in the test database, an LRS stub this test starts): the job a dead
 * worker took stays `active` in the database, as `boss.fetch` leaves it here, until its queue's expiry; pg-boss's
 * maintenance then takes it back and another worker delivers the statements. The test's expiry and maintenance
 * interval are short (its own pg-boss schema, so that no other test's jobs take them); the queue was created before
 * it had an expiry, as in a database deployed before one was set. A delivery begins no POST past the end of its
 * job's budget, so that a job is held well within the expiry, and says what is left for the next.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { jobQueue, type JobQueue, setEventWanted, stopJobQueue } from "@/platform/queue/commands";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import { ANSWERS_WRITTEN } from "@/features/play/server/answer-events";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { setLrs } from "@/features/lti/server/lrs-commands";
import { deliverWaiting } from "@/features/lti/server/xapi-deliver-commands";
import {
  createXapiQueues,
  DELIVER_QUEUE,
  requestDelivery,
  RETRY_LIMIT,
  startXapiWorkers,
} from "@/features/lti/server/xapi-queue";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { oneSceneActivity, until } from "../../../tests/support/lti-setup";
import { acceptingLrs } from "../../../tests/support/lrs-stub";
import { storedStatements, storeStatementRows } from "./xapi-class";

/** The test's expiry of a held job and pg-boss's maintenance interval, in seconds. */
const EXPIRE_S = 3;
const MAINTENANCE_S = 1;

let boss: JobQueue;

/** An academy with an LRS at `endpoint`, a student with a sourcedId, and a self-paced activity of one scene. */
async function setUp(endpoint: string) {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `E${tag}`, nameKana: "いー" });
  const school = (await createSchool(db(), { academyId: academy.id, name: `E${tag}`, nameKana: "いー" })).id;
  const student = await createUser(db(), {
    role: "student",
    email: `e-${tag}@t.example`,
    schoolId: school,
    name: `期限 ${tag}`,
    student: { grade: 1, className: "3", number: 1 },
  });
  await db().user.update({ where: { id: student.id }, data: { sourcedId: `e-${tag}` } });
  const { activity, choice } = await oneSceneActivity(db(), school);
  await setLrs(academy.id, { endpoint, key: "k", secret: "s", includeNames: false }, { via: "cli" });
  return { academyId: academy.id, student: student.id, activity, scene: choice.id };
}

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  boss = await jobQueue(undefined, { schema: `pgboss_expiry_${uniqueTag()}`, maintenanceSeconds: MAINTENANCE_S });
  setEventWanted(ANSWERS_WRITTEN, true);
});
afterAll(async () => {
  setEventWanted(ANSWERS_WRITTEN, false);
  await stopJobQueue();
  await db().$disconnect();
});

describe("a job held by a worker that died", () => {
  it("an academy's delivery taken by a worker that died is delivered by another once it expires, in a queue created before it had an expiry", async () => {
    const lrs = await acceptingLrs();
    try {
      const s = await setUp(lrs.endpoint);
      // the queue as a deployment before the expiry made it: pg-boss's default (15 minutes) for its jobs
      await boss.createQueue(DELIVER_QUEUE, {
        name: DELIVER_QUEUE,
        policy: "stately",
        retryLimit: RETRY_LIMIT,
        retryBackoff: true,
        retryDelay: 1,
      });
      // the app starts (its queues given their expiry), and a worker takes the academy's delivery and dies
      await createXapiQueues(boss, 1, EXPIRE_S);
      await requestDelivery(boss, s.academyId);
      const held = await boss.fetch<{ academyId: string }>(DELIVER_QUEUE);
      expect(held.map((job) => job.data)).toEqual([{ academyId: s.academyId }]);

      // another worker: the answer's statements are stored and wait for the academy's delivery
      await startXapiWorkers(boss, 0.5, 1, EXPIRE_S);
      expect(await saveAnswer(s.student, answerTo(s))).toMatchObject({ ok: true });
      const stored = await until(async () => {
        const rows = await db().xapiStatement.findMany({ where: { activityId: s.activity } });
        return rows.length === 3 && rows;
      }, 20_000);

      // the held job's expiry + two maintenance intervals + its retry wait (at most 2 s) + polls: under 10 s (15 min before)
      const sent = await until(async () => {
        const rows = (await storedStatements(s.activity)).filter((r) => r.state === "sent");
        return rows.length === 3 && rows;
      }, 30_000);
      expect(sent.map((r) => r.id).sort()).toEqual(stored.map((r) => r.id).sort());
      expect(lrs.statements.map((st) => st.id).sort()).toEqual(stored.map((r) => r.id).sort());
      // the dead worker's job was taken back by its expiry and tried again (nothing left to send)
      const job = await until(async () => {
        const found = await boss.getJobById(DELIVER_QUEUE, held[0]!.id);
        return found?.state === "completed" && found;
      }, 15_000);
      expect(job.retryCount).toBe(1);
    } finally {
      await lrs.close();
    }
  });
});

describe("a delivery's budget", () => {
  it("a delivery past its end begins no POST and leaves the statements waiting; the next sends them all", async () => {
    const lrs = await acceptingLrs();
    try {
      const s = await setUp(lrs.endpoint);
      const ids = Array.from({ length: 120 }, () => randomUUID());
      await storeStatementRows(
        ids.map((id) => ({
          id,
          academyId: s.academyId,
          activityId: s.activity,
          userId: s.student,
          verb: "answered",
          statement: { id },
        })),
      );
      const waiting = () => db().xapiStatementWaiting.count({ where: { academyId: s.academyId } });

      expect(await deliverWaiting(s.academyId, Date.now())).toBe(false);
      expect(lrs.statements).toEqual([]);
      expect(await waiting()).toBe(120);

      expect(await deliverWaiting(s.academyId, Date.now() + 60_000)).toBe(true);
      expect(lrs.statements.map((st) => st.id).sort()).toEqual([...ids].sort());
      expect(await waiting()).toBe(0);
    } finally {
      await lrs.close();
    }
  });
});

function answerTo(s: { activity: string; scene: string }) {
  return {
    activityId: s.activity,
    sceneId: s.scene,
    answer: { choice: "clear" },
    clientRevision: 1,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "self" as const,
  };
}
