import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { zipRosterPackage } from "@/lib/oneroster/write";
import { runUploadJobInThread } from "@/lib/roster/upload-thread";
import { createAcademy, createUser, uniqueTag } from "../../prisma/seed/factories";
import { citySchools, rosterSet } from "./roster-fixture";

// The roster upload thread of lib/roster/upload-thread.ts (upload-worker.mjs) as the command line and
// the tests load the app (tsx, not Next's bundle): the set is read, planned and applied in the thread,
// which answers with the response's bytes and then ends, handing the academy's slot back.

async function manager() {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `U${tag}`, nameKana: "ゆー" });
  const user = await createUser(db(), { role: "manager", email: `u-${tag}@test.example`, academyId: academy.id, name: "送信 管理" });
  return { academyId: academy.id, actorId: user.id };
}

function run(job: Parameters<typeof runUploadJobInThread>[0]) {
  let released = () => undefined as void;
  const ended = new Promise<void>((resolve) => (released = resolve));
  return { answer: runUploadJobInThread(job, () => released()), ended };
}

describe("roster upload thread", () => {
  it("checks and applies a zipped set in a thread of its own, answering JSON then NDJSON, and ends", async () => {
    const who = await manager();
    const body = new Uint8Array(zipRosterPackage(rosterSet(citySchools(1, 3, 4))));
    const check = run({ ...who, kind: "import", apply: false, body: body.slice(), contentType: "application/zip" });
    const checked = await check.answer;
    expect(checked.status).toBe(200);
    const plan = (await checked.json()) as { schools: { students: { create: number } }[]; problems: unknown[]; applied: boolean };
    expect([plan.problems, plan.applied, plan.schools[0]!.students.create]).toEqual([[], false, 12]);
    await check.ended;

    const apply = run({ ...who, kind: "import", apply: true, body, contentType: "application/zip" });
    const applied = await apply.answer;
    expect(applied.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await applied.text()).trimEnd().split("\n").map((l) => JSON.parse(l) as { result?: { applied: boolean } });
    expect(lines.at(-1)!.result!.applied).toBe(true);
    await apply.ended;
    expect(await db().user.count({ where: { role: "student", school: { academyId: who.academyId } } })).toBe(12);
  });

  it("a body that is no form and no zip is refused with 400 and the thread ends", async () => {
    const who = await manager();
    const job = run({ ...who, kind: "import", apply: false, body: new TextEncoder().encode("not a form"), contentType: "multipart/form-data; boundary=x" });
    const answer = await job.answer;
    expect([answer.status, await answer.json()]).toEqual([400, { ok: false, code: "VALIDATION" }]);
    await job.ended;
  });
});
