/**
 * The learning records' workers (pg-boss in the test database, LRS stubs this test starts): once an academy has an
 * LRS, the server's check starts them in a child process whose every thread is at idle priority, and it makes and
 * sends a saved answer's statements. A class saving at once: the save statements' answers, gathered into a job for
 * each GATHER_MS (not one per statement: platform/queue/commands.ts publishGathered), waiting in the record
 * queue when the workers start (the production polling interval), all become their statements within a few seconds,
 * each student's exactly as one save alone makes them (initialized, answered, completed with the score), each made
 * at the moment its answer was saved, and reach the academy's LRS in the order the class saved.
 */
import type { ChildProcess } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { GATHER_MS, jobQueue, setEventWanted, stopJobQueue } from "@/platform/queue/commands";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import { ANSWERS_WRITTEN } from "@/features/play/server/answer-events";
import { setLrs } from "@/features/lti/server/lrs-commands";
import { checkXapi, RECORD_QUEUE, startXapiWorkers } from "@/features/lti/server/xapi-queue";
import { uniqueTag } from "../../../prisma/seed/factories";
import { childPid, threadPriorities } from "../../../tests/support/child-processes";
import { acceptingLrs } from "../../../tests/support/lrs-stub";
import { classWithKeyedScene, storedStatements } from "./xapi-class";

const STUDENTS = 60;
const CHILD = "xapi-worker-child.mjs";

async function until<T>(what: () => Promise<T | null | undefined | false>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (value) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** An academy with an LRS at `endpoint`, a class of `size` students with sourcedIds, a self-paced activity of one keyed scene. */
async function setUp(endpoint: string, size: number) {
  const s = await classWithKeyedScene(size);
  await setLrs(s.academyId, { endpoint, key: "k", secret: "s", includeNames: false }, { via: "cli" });
  return s;
}

afterAll(async () => {
  setEventWanted(ANSWERS_WRITTEN, false, "xapi");
  setEventWanted(ANSWERS_WRITTEN, false);
  await stopJobQueue();
  await db().$disconnect();
});

/** The answers the record queue's waiting jobs carry. */
async function answersWaiting(): Promise<number> {
  const [row] = await db().$queryRaw<{ n: number }[]>`
    select coalesce(sum(jsonb_array_length(data->'answers')), 0)::int as n
    from pgboss.job where name = ${RECORD_QUEUE} and state = 'created'`;
  return row?.n ?? 0;
}

/** A saved answer of `student` choosing `choice`. */
const save = (s: { activity: string; scene: string }, student: string, choice: string) =>
  saveAnswer(student, {
    activityId: s.activity,
    sceneId: s.scene,
    answer: { choice },
    clientRevision: 1,
    idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
    mode: "self",
  });

describe("the learning records' workers", () => {
  // first: the server's check, before this file works the queues in its own process below
  it("once an academy has an LRS, a child process at idle priority makes and sends a saved answer's statements", async () => {
    const lrs = await acceptingLrs();
    try {
      const s = await setUp(lrs.endpoint, 1);
      // the child starved of a core (idle priority on a busy machine): stopped the moment it is started
      const stopped: ChildProcess[] = [];
      const stop = (message: unknown) => {
        // published as the process is made: its arguments are known once it has spawned
        const child = (message as { process: ChildProcess }).process;
        child.once("spawn", () => {
          if (child.spawnargs.some((a) => a.endsWith(CHILD)) && child.kill("SIGSTOP")) stopped.push(child);
        });
      };
      subscribe("child_process", stop);
      try {
        // the check (which a manager's save of the LRS waits for) does not wait for the child
        const waited = await Promise.race([
          checkXapi().then(() => false),
          new Promise<boolean>((r) => setTimeout(() => r(true), 15_000)),
        ]);
        expect(waited).toBe(false);
      } finally {
        unsubscribe("child_process", stop);
      }
      expect(stopped).toHaveLength(1);
      // saved while the child is not ready: published all the same, made and sent once it runs
      expect(await save(s, s.students[0]!, "clear")).toMatchObject({ ok: true });
      stopped[0]!.kill("SIGCONT");
      // the workers' process: every thread in the idle class at nice 19
      await expect
        .poll(
          () => {
            const pid = childPid(CHILD);
            const threads = pid === undefined ? [] : threadPriorities(pid);
            return threads.length > 0 && threads.every((t) => t.policy === 5 && t.nice === 19);
          },
          { timeout: 60_000, interval: 50 },
        )
        .toBe(true);
      // at idle priority on a busy machine the child may wait for a core
      await until(async () => {
        const rows = await storedStatements(s.activity);
        return rows.length === 3 && rows.every((r) => r.state === "sent");
      }, 90_000);
      const made = await db().xapiStatement.findMany({ where: { activityId: s.activity } });
      expect(lrs.statements.filter((st) => made.some((r) => r.id === st.id))).toHaveLength(3);
    } finally {
      await lrs.close();
      // the next test works the queue itself: the child ends (as it does when its server goes)
      const pid = childPid(CHILD);
      if (pid !== undefined) process.kill(pid);
      await until(async () => childPid(CHILD) === undefined, 30_000);
    }
  }, 180_000);
});

describe("learning records of a class saving at once", () => {
  it("the statements of 60 students' saves waiting in the queue are made and sent within seconds, each as one save makes them", async () => {
    const lrs = await acceptingLrs();
    try {
      const s = await setUp(lrs.endpoint, STUDENTS);
      const boss = await jobQueue();
      // the record queue receives the saves' event, and nobody works it yet
      await boss.createQueue(RECORD_QUEUE, { name: RECORD_QUEUE });
      await boss.subscribe(ANSWERS_WRITTEN, RECORD_QUEUE);
      setEventWanted(ANSWERS_WRITTEN, true);
      // one save at a time, a save statement each; half the class right, half wrong
      const saving = Date.now();
      for (const [n, student] of s.students.entries()) {
        expect(await save(s, student, n % 2 === 0 ? "clear" : "cloudy")).toMatchObject({ ok: true });
      }
      const saved = Date.now() - saving;
      await until(async () => (await answersWaiting()) === STUDENTS, 15_000);
      // gathered: a job for the statements of each GATHER_MS (and one more begun before the last), not one per statement
      expect(await boss.getQueueSize(RECORD_QUEUE)).toBeLessThanOrEqual(Math.ceil(saved / GATHER_MS) + 1);

      const started = Date.now();
      await startXapiWorkers(boss);
      const made = await until(async () => {
        const rows = await storedStatements(s.activity);
        return rows.length === 3 * STUDENTS && rows.every((r) => r.state === "sent") && rows;
      }, 30_000);
      // a class's statements do not wait a polling interval per few saves (5 jobs every 2 s took 24 s for these)
      expect(Date.now() - started).toBeLessThan(10_000);

      expect(lrs.statements.map((st) => st.id).sort()).toEqual(made.map((r) => r.id).sort());
      // each made at the moment its answer was saved, and received in the order the class saved
      for (const r of made) expect(r.createdAt.toISOString()).toBe((r.statement as { timestamp: string }).timestamp);
      const received = lrs.statements.map((st) => made.find((r) => r.id === st.id)!);
      expect(received.map((r) => s.students.indexOf(r.userId))).toEqual(
        [...received.map((r) => s.students.indexOf(r.userId))].sort((a, b) => a - b),
      );
      for (const [n, student] of s.students.entries()) {
        const mine = made.filter((r) => r.userId === student);
        expect(mine.map((r) => r.verb).sort()).toEqual(["answered", "completed", "initialized"]);
        const completed = mine.find((r) => r.verb === "completed")!.statement as { result: unknown };
        expect(completed.result).toEqual({
          completion: true,
          score: { raw: n % 2 === 0 ? 1 : 0, min: 0, max: 1, scaled: n % 2 === 0 ? 1 : 0 },
        });
      }
    } finally {
      await lrs.close();
    }
  });
});
