/**
 * A live lesson with the app's database behind a transaction pooler (PgBouncer in transaction mode, 1.18:
 * no prepared-statement support; tests/support/pgbouncer.ts): DATABASE_URL through it, DATABASE_DIRECT_URL
 * straight to the cluster (docs/scaling.md "What runs where"). The teacher starts, the students' streams
 * follow every 次へ and the pause, a class's answers saved at once in batches arrive whole, the results count
 * them — with no statement failing because a pooled server connection already holds another client's named
 * statement, and no notification lost because LISTEN went through the pooler.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));

import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { setSessionPaused, startSession } from "@/features/play/server/session-commands";
import { activityStats } from "@/features/results/server/stats";
import { createActivityFromTemplate, createUser } from "../../../prisma/seed/factories";

import { sessionCookieOf } from "../../../tests/support/next-headers-fake";
import { type LiveEndpoints, serveLiveEndpoints } from "../../../tests/support/live-endpoints";
import { followStream, until } from "../../../tests/support/live-stream";
import { throughPooler } from "../../../tests/support/pooler";
import { twoSchools } from "../../../tests/support/two-schools";

// the app's settings as an operator behind a transaction pooler writes them (read on first use)
process.env.DATABASE_DIRECT_URL = process.env.DATABASE_URL;
process.env.DATABASE_URL = throughPooler(process.env.DATABASE_URL!);

const STUDENTS = 24;
const ids = {} as {
  school: AuthorizedSchoolId;
  teacher: string;
  students: string[];
  activity: string;
  scenes: { id: string; type: string }[];
};
let live: LiveEndpoints;

beforeAll(async () => {
  const { tag, school } = await twoSchools();
  ids.school = school.id as AuthorizedSchoolId;
  ids.teacher = (await createUser(db(), { role: "teacher", email: `t-${tag}@t.example`, schoolId: school.id })).id;
  ids.students = [];
  for (let n = 1; n <= STUDENTS; n++)
    ids.students.push(
      (
        await createUser(db(), {
          role: "student",
          email: `s${n}-${tag}@t.example`,
          schoolId: school.id,
          student: { grade: 1, className: "1", number: n },
        })
      ).id,
    );
  ids.activity = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school.id, mode: "guide" })
  ).id;
  ids.scenes = await db().activityScene.findMany({
    where: { activityId: ids.activity },
    orderBy: { position: "asc" },
    select: { id: true, type: true },
  });
  // the production server's endpoints, each with its pool through the pooler (no databaseUrl: the app's)
  live = await serveLiveEndpoints({ answers: 6, advance: 8, streams: 4 });
});
afterAll(async () => {
  await live?.close();
  await db().$disconnect();
});

const follow = async (student: string) =>
  followStream(live.ports.streams, ids.activity, await sessionCookieOf(student, "student", 0));

const press = (sceneId: string) => live.press(ids.activity, ids.teacher, sceneId);
const answer = (student: string, sceneId: string, revision: number) =>
  live.answer(ids.activity, student, sceneId, revision);

describe("a live lesson behind a transaction pooler", () => {
  it("start, 次へ, pause and a class answering at once: every student follows, every answer is saved, results count them", async () => {
    const ctx = { schoolId: ids.school, actorId: ids.teacher };
    expect(await startSession(ctx, ids.activity)).toMatchObject({ ok: true });
    const streams = await Promise.all(ids.students.slice(0, 8).map(follow));
    try {
      await until(() => streams.every((s) => s.states().length > 0), "every stream's first state");

      // 次へ, scene after scene, pressed twice at once as a hurried teacher does: each stream sees the scene
      const choice = ids.scenes.find((s) => s.type === "single_choice")!;
      for (const scene of ids.scenes.slice(1, ids.scenes.indexOf(choice) + 1)) {
        expect(await Promise.all([press(scene.id), press(scene.id)])).toEqual([200, 200]);
        await until(() => streams.every((s) => s.states().at(-1)?.sceneId === scene.id), `every stream on ${scene.id}`);
      }

      // the whole class answers at once, three times over (newer revisions replace the older)
      for (const revision of [1, 2, 3]) {
        const statuses = await Promise.all(ids.students.map((s) => answer(s, choice.id, revision)));
        expect(statuses).toEqual(ids.students.map(() => 200));
      }

      expect(await setSessionPaused(ctx, ids.activity, true)).toMatchObject({ ok: true });
      await until(() => streams.every((s) => s.states().at(-1)?.paused === true), "every stream paused");
      expect(await setSessionPaused(ctx, ids.activity, false)).toMatchObject({ ok: true });
      await until(() => streams.every((s) => s.states().at(-1)?.paused === false), "every stream back");
    } finally {
      for (const s of streams) s.stop();
    }

    const stats = (await activityStats(ids.school, ids.activity, {}))!;
    const scene = stats.scenes.find((s) => s.id === ids.scenes.find((x) => x.type === "single_choice")!.id);
    expect(scene?.answered).toBe(STUDENTS);
    expect(scene?.choices).toEqual({ clear: STUDENTS });
  });
});
