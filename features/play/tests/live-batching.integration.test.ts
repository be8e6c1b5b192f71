/**
 * An instance's live streams reach the database together (a class opening,
 * beating and closing at once; fifty classes notified at once), so their
 * presence refreshes, session checks and state reads are batched
 * (features/play/server/session-commands.ts, platform/auth/session.ts, features/play/server/state-queries.ts). Batched,
 * each caller must still get exactly its own answer, repeated keys included.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));

import { sessionStillCurrent } from "@/platform/auth/session";
import { db } from "@/platform/db";
import { leavePresence, touchPresence } from "@/features/play/server/session-commands";
import { liveStateForStudent } from "@/features/play/server/state-queries";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";

const ids = {} as { students: string[]; sessionId: string; running: string; idle: string; scene: string };

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `B${tag}`, nameKana: "びー" });
  const school = await createSchool(db(), { academyId: academy.id, name: `B${tag}`, nameKana: "びー" });
  ids.students = [];
  for (let i = 0; i < 12; i++) {
    ids.students.push(
      (
        await createUser(db(), {
          role: "student",
          email: `b${i}-${tag}@t.example`,
          schoolId: school.id,
          student: { grade: 1, className: "1", number: i + 1 },
        })
      ).id,
    );
  }
  const running = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const idle = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  ids.scene = (
    await db().activityScene.findFirstOrThrow({
      where: { activityId: running.id },
      orderBy: { position: "asc" },
      select: { id: true },
    })
  ).id;
  ids.sessionId = (
    await db().guideSession.create({
      data: { activityId: running.id, currentSceneId: ids.scene, lockedSceneIds: [ids.scene] },
      select: { id: true },
    })
  ).id;
  Object.assign(ids, { running: running.id, idle: idle.id });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("batched live reads and writes", () => {
  it("presence: refreshes made together (a student's twice) and removals made together each take effect", async () => {
    await Promise.all([...ids.students, ...ids.students.slice(0, 5)].map((u) => touchPresence(ids.sessionId, u)));
    expect(await db().guidePresence.count({ where: { sessionId: ids.sessionId } })).toBe(12);
    await Promise.all(ids.students.slice(0, 4).map((u) => leavePresence(ids.sessionId, u)));
    // a student who left stays as "was here" (seen at the epoch: offline in the teacher's grid)
    const left = await db().guidePresence.findMany({
      where: { sessionId: ids.sessionId, seenAt: { gt: new Date(Date.now() - 35_000) } },
      select: { userId: true },
    });
    expect(left.map((p) => p.userId).sort()).toEqual(ids.students.slice(4).sort());
  });

  it("session checks made together: each stream learns whether its own session is still current", async () => {
    const [ok, disabled, stale] = ids.students.slice(0, 3) as [string, string, string];
    await db().user.update({ where: { id: disabled }, data: { disabled: true } });
    await db().user.update({ where: { id: stale }, data: { sessionVersion: 3 } });
    const checks: (() => Promise<boolean>)[] = [];
    for (const [sub, sv] of [
      [ok, 0],
      [disabled, 0],
      [stale, 0],
      [stale, 3],
    ] as const) {
      session.cookie = await sessionCookieOf(sub, "student", sv);
      checks.push(await sessionStillCurrent());
    }
    expect(await Promise.all(checks.map((check) => check()))).toEqual([true, false, false, true]);
  });

  it("state reads of several activities made together: each gets its own state", async () => {
    const { version } = await db().guideSession.findUniqueOrThrow({
      where: { id: ids.sessionId },
      select: { version: true },
    });
    const [running, idle, missing] = await Promise.all([
      liveStateForStudent(ids.running, null),
      liveStateForStudent(ids.idle, null),
      liveStateForStudent(crypto.randomUUID(), null),
    ]);
    expect(running).toMatchObject({
      activityId: ids.running,
      mode: "guide",
      sessionId: ids.sessionId,
      status: "running",
      sceneId: ids.scene,
      locked: true,
      version,
    });
    expect(running!.sessionStartedAt).toBeGreaterThan(0);
    expect(idle).toMatchObject({
      activityId: ids.idle,
      sessionId: null,
      status: "waiting",
      sceneId: null,
      locked: false,
    });
    expect(missing).toBeNull();
  });
});
