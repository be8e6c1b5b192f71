/**
 * A live lesson with the app's database behind a transaction pooler (PgBouncer in transaction mode, 1.18:
 * no prepared-statement support; tests/support/pgbouncer.ts): DATABASE_URL through it, DATABASE_DIRECT_URL
 * straight to the cluster (docs/scaling.md "What runs where"). The teacher starts, the students' streams
 * follow every 次へ and the pause, a class's answers saved at once in batches arrive whole, the results count
 * them — with no statement failing because a pooled server connection already holds another client's named
 * statement, and no notification lost because LISTEN went through the pooler.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));

import { db } from "@/platform/db";
import { env } from "@/platform/env";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createAdvanceEndpoint } from "@/features/play/server/advance-endpoint";
import { createAnswerEndpoint } from "@/features/play/server/answer-endpoint";
import { setSessionPaused, startSession } from "@/features/play/server/session-commands";
import { createStreamEndpoint } from "@/features/play/server/stream-endpoint";
import { activityStats } from "@/features/results/server/stats";
import { createActivityFromTemplate, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { serveEndpoint } from "../../../tests/support/helpers";
import { sessionCookieOf } from "../../../tests/support/next-headers-fake";
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
const servers: http.Server[] = [];
const closers: (() => Promise<void>)[] = [];
const ports = {} as { answers: number; advance: number; streams: number };

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
  const common = { authSecret: process.env.AUTH_SECRET!, production: true };
  const answers = createAnswerEndpoint({ ...common, poolSize: 6 });
  const advance = createAdvanceEndpoint({ ...common, poolSize: 8 });
  const streams = createStreamEndpoint({
    ...common,
    poolSize: 4,
    limits: { perUser: env().LIVE_STREAMS_PER_USER, max: env().LIVE_STREAMS_MAX },
  });
  for (const [key, endpoint] of [
    ["answers", answers],
    ["advance", advance],
  ] as const) {
    const served = await serveEndpoint(endpoint);
    servers.push(served.server);
    ports[key] = served.port;
    closers.push(() => endpoint.close());
  }
  const streamServer = http.createServer((req, res) => void streams.handle(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => streamServer.listen(0, "127.0.0.1", resolve));
  servers.push(streamServer);
  ports.streams = (streamServer.address() as AddressInfo).port;
  closers.push(() => streams.close());
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  for (const close of closers) await close();
  await db().$disconnect();
});

const follow = async (student: string) =>
  followStream(ports.streams, ids.activity, await sessionCookieOf(student, "student", 0));

async function press(sceneId: string) {
  const res = await fetch(`http://127.0.0.1:${ports.advance}/api/v1/live/${ids.activity}/scene`, {
    method: "POST",
    body: JSON.stringify({ sceneId }),
    headers: { "content-type": "application/json", cookie: await sessionCookieOf(ids.teacher, "teacher", 0) },
  });
  return res.status;
}

async function answer(student: string, sceneId: string, revision: number) {
  const res = await fetch(`http://127.0.0.1:${ports.answers}/api/v1/answers`, {
    method: "POST",
    body: JSON.stringify({
      activityId: ids.activity,
      sceneId,
      answer: { choice: revision % 2 ? "clear" : "cloudy" },
      clientRevision: revision,
      idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
      mode: "guide",
    }),
    headers: { "content-type": "application/json", cookie: await sessionCookieOf(student, "student", 0) },
  });
  return res.status;
}

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
