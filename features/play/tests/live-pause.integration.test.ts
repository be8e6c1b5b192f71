/**
 * "Eyes on me" as one statement (features/play/server/session-commands.ts setSessionPaused): it changes only
 * the running session of the school's own guide-mode activity, moves its version on, writes the
 * audit entry, and refuses (nothing changed) when no session runs or the activity is another school's, or when the
 * press waited behind the teacher ending the lesson (as any other change of a session: lockedSession).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { endSession, setSceneLocked, setSessionPaused, startSession } from "@/features/play/server/session-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createActivityFromTemplate, createUser } from "../../../prisma/seed/factories";
import { twoSchools } from "../../../tests/support/two-schools";
import { whileLockHeld } from "../../../tests/support/held-lock";

const ids = {} as { school: string; other: string; teacher: string; foreignTeacher: string; activity: string };
const ctx = () => ({ schoolId: ids.school as AuthorizedSchoolId, actorId: ids.teacher });
const session = () =>
  db().guideSession.findFirstOrThrow({
    where: { activityId: ids.activity },
    orderBy: { startedAt: "desc" },
    select: { paused: true, version: true, endedAt: true },
  });
const audits = () =>
  db().auditLog.findMany({
    where: { targetId: ids.activity, action: { in: ["guide.pause", "guide.resume"] } },
    orderBy: { id: "asc" },
    select: { action: true, actorId: true, schoolId: true, targetType: true },
  });

beforeAll(async () => {
  const { tag, school, other } = await twoSchools();
  const activity = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  Object.assign(ids, {
    school: school.id,
    other: other.id,
    activity: activity.id,
    teacher: (await createUser(db(), { role: "teacher", email: `pt-${tag}@t.example`, schoolId: school.id })).id,
    foreignTeacher: (await createUser(db(), { role: "teacher", email: `pft-${tag}@t.example`, schoolId: other.id })).id,
  });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("eyes on me (pause) in one statement", () => {
  it("refuses with nothing running, pauses and resumes the running session with its version and audit, never another school's, and refuses once it ended", async () => {
    expect(await setSessionPaused(ctx(), ids.activity, true)).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { session: ["notRunning"] },
    });
    expect(await startSession(ctx(), ids.activity)).toMatchObject({ ok: true });
    const before = await session();
    expect(before.paused).toBe(false);

    // another school's teacher naming this activity: refused, nothing changed, nothing audited
    const foreign = { schoolId: ids.other as AuthorizedSchoolId, actorId: ids.foreignTeacher };
    expect(await setSessionPaused(foreign, ids.activity, true)).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(await session()).toEqual(before);
    expect(await audits()).toEqual([]);

    expect(await setSessionPaused(ctx(), ids.activity, true)).toEqual({ ok: true, data: null });
    expect(await session()).toMatchObject({ paused: true, version: before.version + 1 });
    expect(await setSessionPaused(ctx(), ids.activity, false)).toEqual({ ok: true, data: null });
    expect(await session()).toMatchObject({ paused: false, version: before.version + 2 });
    const entry = { actorId: ids.teacher, schoolId: ids.school, targetType: "activity" };
    expect(await audits()).toEqual([
      { action: "guide.pause", ...entry },
      { action: "guide.resume", ...entry },
    ]);

    expect(await endSession(ctx(), ids.activity)).toMatchObject({ ok: true });
    const ended = await session();
    expect(await setSessionPaused(ctx(), ids.activity, true)).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(await session()).toEqual(ended);
  });

  it("a press waiting behind the teacher ending the lesson changes nothing: the ended session keeps its pause, version and audit", async () => {
    const running = await runningSession();
    const auditsBefore = (await audits()).length;
    const reply = await whileEnding(running.id, () => setSessionPaused(ctx(), ids.activity, true));
    expect(reply).toMatchObject({ ok: false, code: "CONFLICT" });
    const after = await db().guideSession.findUniqueOrThrow({ where: { id: running.id } });
    expect(after).toMatchObject({ paused: false, version: running.version });
    expect((await audits()).length).toBe(auditsBefore);
  });

  it("a lock of the scene waiting behind the teacher ending the lesson changes nothing either", async () => {
    const running = await runningSession();
    const reply = await whileEnding(running.id, () => setSceneLocked(ctx(), ids.activity, true));
    expect(reply).toMatchObject({ ok: false, code: "CONFLICT" });
    const after = await db().guideSession.findUniqueOrThrow({ where: { id: running.id } });
    expect(after).toMatchObject({ lockedSceneIds: [], version: running.version });
    expect(await db().auditLog.count({ where: { targetId: ids.activity, action: "guide.lock" } })).toBe(0);
  });
});

async function runningSession() {
  expect(await startSession(ctx(), ids.activity)).toMatchObject({ ok: true });
  return db().guideSession.findFirstOrThrow({
    where: { activityId: ids.activity, endedAt: null },
    select: { id: true, version: true },
  });
}

/** Runs `press` while another transaction holds the session's row, ending it; the press waits for it to commit. */
function whileEnding<T>(sessionId: string, press: () => Promise<T>): Promise<T> {
  return whileLockHeld("update guide_sessions set ended_at = now() where id = $1", [sessionId], press);
}
