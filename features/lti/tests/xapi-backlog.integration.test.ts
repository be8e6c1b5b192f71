/**
 * A learning records' queue far behind (its workers stopped or starved while a school saved): one fetch is
 * RECORD_BATCH jobs of up to GATHER_MAX answers, 20,000 answers, and the workers' child records them within its heap
 * (WORKER_HEAP_MB), every answer's statement made. Stored by one insert for the whole fetch, the statements ran the
 * child out of memory (it would die, and meet the same fetch again when it came back); they are stored a slice at a
 * time (xapi-record-commands.ts SLICE).
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { forkIdleChild } from "@/platform/ops/idle-child";
import { GATHER_MAX } from "@/platform/queue/commands";
import type { WrittenAnswer } from "@/features/play/server/answer-writer";
import { RECORD_BATCH, WORKER_HEAP_MB } from "@/features/lti/server/xapi-queue";
import { freshDatabase } from "../../../tests/support/helpers";
import { classWithKeyedScene } from "./xapi-class";

// a database of its own: the test's 60,000 statements wait unsent and would skew the shared one's statistics
const database = freshDatabase("xapi_backlog");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

/** The next message of `child`, or its exit. */
const reply = <T>(child: ChildProcess) =>
  new Promise<T>((resolve, reject) => {
    child.once("message", (m) => resolve(m as T));
    child.once("exit", (code, signal) => reject(new Error(`the child ended (${code ?? signal})`)));
  });

describe("learning records far behind", () => {
  it("a whole fetch of answers (RECORD_BATCH full jobs) is recorded within the workers' heap", async () => {
    const s = await classWithKeyedScene(60, database.prisma);
    await database.prisma.academyLrs.create({
      data: {
        academyId: s.academyId,
        endpoint: "http://127.0.0.1:9/xapi",
        credentialsSealed: "-",
        includeNames: false,
      },
    });
    const at = Date.parse("2026-11-30T09:00:00.000Z");
    const jobs: WrittenAnswer[][] = Array.from({ length: RECORD_BATCH }, (_, j) =>
      Array.from({ length: GATHER_MAX }, (_, k) => {
        const n = j * GATHER_MAX + k;
        return {
          ...{ userId: s.students[n % s.students.length]!, activityId: s.activity, sceneId: s.scene, mode: "self" },
          ...{ revision: 1 + Math.floor(n / s.students.length), savedAt: new Date(at + n).toISOString() },
          answer: { choice: n % 2 === 0 ? "clear" : "cloudy" },
        } satisfies WrittenAnswer;
      }),
    );
    const child = forkIdleChild(["features", "lti", "tests", "record-child.mjs"], [], {
      heapMb: WORKER_HEAP_MB,
      env: { ...process.env, DATABASE_URL: database.url },
    });
    children.push(child);
    await reply(child);
    const done = reply<{ academies?: string[]; error?: string }>(child);
    child.send(jobs);
    expect(await done).toEqual({ academies: [s.academyId] });
    const answered = await database.prisma.xapiStatement.count({ where: { activityId: s.activity, verb: "answered" } });
    expect(answered).toBe(RECORD_BATCH * GATHER_MAX);
  }, 300_000);
});
