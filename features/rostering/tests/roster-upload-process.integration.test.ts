import { readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { zipRosterPackage } from "@/features/rostering/shared/oneroster-write";
import type { UploadJob } from "@/features/rostering/server/upload-job";
import { runUploadJobInChild, storeUpload } from "@/features/rostering/server/upload-process";
import { createAcademy, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { childPid, threadPriorities } from "../../../tests/support/child-processes";
import { citySchools, rosterSet } from "../../../tests/support/roster-fixture";

// The roster upload child of features/rostering/server/upload-process.ts (upload-child.mjs) as the command line and
// the tests load the app (tsx, not Next's bundle): the set is read, planned and applied in the child,
// which answers with the response's bytes and then ends, handing the academy's slot back.

async function manager() {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `U${tag}`, nameKana: "ゆー" });
  const user = await createUser(db(), {
    role: "manager",
    email: `u-${tag}@test.example`,
    academyId: academy.id,
    name: "送信 管理",
  });
  return { academyId: academy.id, actorId: user.id };
}

/** The job's upload stored as the route stores it, and the child started on it: its answer, and when its work is over (the slot given back). */
async function run({ body, ...job }: UploadJob) {
  const { upload } = await storeUpload((file) => writeFile(file, body, { mode: 0o600 }));
  let released = () => undefined as void;
  let over = false;
  const ended = new Promise<void>((resolve) => (released = resolve));
  const answer = runUploadJobInChild(job, upload, () => {
    over = true;
    released();
  });
  return { answer, ended, over: () => over };
}

describe("roster upload child process", () => {
  it("checks and applies a zipped set in a child process of its own, answering JSON then NDJSON, and ends", async () => {
    const who = await manager();
    const body = new Uint8Array(zipRosterPackage(rosterSet(citySchools(1, 3, 4))));
    const check = await run({
      ...who,
      kind: "import",
      apply: false,
      body: body.slice(),
      contentType: "application/zip",
    });
    const checked = await check.answer;
    // the child may not be scheduled again for a while (idle priority on a busy server): a manager
    // who reads the answer and sends the next set at once is not told "busy"
    expect(check.over(), "the academy's slot is free once the JSON answer is there").toBe(true);
    expect(checked.status).toBe(200);
    const plan = (await checked.json()) as {
      schools: { students: { create: number } }[];
      problems: unknown[];
      applied: boolean;
    };
    expect([plan.problems, plan.applied, plan.schools[0]!.students.create]).toEqual([[], false, 12]);
    await check.ended;

    const apply = await run({ ...who, kind: "import", apply: true, body, contentType: "application/zip" });
    const applied = await apply.answer;
    expect(applied.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await applied.text())
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { result?: { applied: boolean } });
    expect(lines.at(-1)!.result!.applied).toBe(true);
    await apply.ended;
    expect(await db().user.count({ where: { role: "student", school: { academyId: who.academyId } } })).toBe(12);
  });

  it("a body that is no form and no zip is refused with 400 and the child ends", async () => {
    const who = await manager();
    const job = await run({
      ...who,
      kind: "import",
      apply: false,
      body: new TextEncoder().encode("not a form"),
      contentType: "multipart/form-data; boundary=x",
    });
    const answer = await job.answer;
    expect([answer.status, await answer.json()]).toEqual([400, { ok: false, code: "VALIDATION" }]);
    await job.ended;
  });
});

describe.runIf(process.platform === "linux")("roster upload child process at idle priority", () => {
  it("works through a set with every thread at idle priority, and leaves no upload on disk when it ends", async () => {
    const who = await manager();
    const before = new Set(readdirSync(os.tmpdir()).filter((d) => d.startsWith("manabiya-roster-")));
    const body = new Uint8Array(zipRosterPackage(rosterSet(citySchools(20, 25, 40))));
    const check = await run({ ...who, kind: "import", apply: false, body, contentType: "application/zip" });
    // the child, once its modules are loaded and while it reads the set: every thread idle (SCHED_IDLE, nice 19)
    await expect
      .poll(
        () => {
          const pid = childPid("upload-child.mjs");
          const threads = pid === undefined ? [] : threadPriorities(pid);
          return threads.length > 1 && threads.every((t) => t.policy === 5 && t.nice === 19);
        },
        { timeout: 60_000, interval: 20 },
      )
      .toBe(true);
    const answer = await check.answer;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { schools: unknown[] }).schools).toHaveLength(20);
    await check.ended;
    await expect.poll(() => childPid("upload-child.mjs"), { timeout: 30_000 }).toBeUndefined();
    await expect
      .poll(() => readdirSync(os.tmpdir()).filter((d) => d.startsWith("manabiya-roster-") && !before.has(d)))
      .toEqual([]);
  }, 120_000);
});
