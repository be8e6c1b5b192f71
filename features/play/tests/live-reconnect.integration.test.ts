/**
 * The live bus's listening connection comes back (platform/notify/listen.ts): mid-lesson its backend is
 * ended (pg_terminate_backend, as a failover or an administrator does). Meanwhile the instance is not ready
 * (GET /readyz's check: platform/ops/health.ts); the teacher's move made while nobody listens reaches every
 * open stream once the connection is back (each re-reads its state), and later moves arrive as notified.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));

import { db } from "@/platform/db";
import { env } from "@/platform/env";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { goToScene, startSession } from "@/features/play/server/session-commands";
import { createStreamEndpoint } from "@/features/play/server/stream-endpoint";
import { readiness } from "@/platform/ops/health";
import { createActivityFromTemplate, createUser } from "../../../prisma/seed/factories";
import { testDatabaseUrl } from "../../../tests/support/helpers";
import { followStream, until } from "../../../tests/support/live-stream";
import { sessionCookieOf } from "../../../tests/support/next-headers-fake";
import { twoSchools } from "../../../tests/support/two-schools";

const ids = {} as {
  school: AuthorizedSchoolId;
  teacher: string;
  students: string[];
  activity: string;
  scenes: string[];
};
let server: http.Server;
let endpoint: ReturnType<typeof createStreamEndpoint>;
let port: number;

beforeAll(async () => {
  const { tag, school } = await twoSchools();
  ids.school = school.id as AuthorizedSchoolId;
  ids.teacher = (await createUser(db(), { role: "teacher", email: `t-${tag}@t.example`, schoolId: school.id })).id;
  ids.students = [];
  for (let n = 1; n <= 4; n++)
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
  ids.scenes = (
    await db().activityScene.findMany({
      where: { activityId: ids.activity },
      orderBy: { position: "asc" },
      select: { id: true },
    })
  ).map((s) => s.id);
  endpoint = createStreamEndpoint({
    authSecret: process.env.AUTH_SECRET!,
    production: true,
    poolSize: 2,
    limits: { perUser: env().LIVE_STREAMS_PER_USER, max: env().LIVE_STREAMS_MAX },
  });
  server = http.createServer((req, res) => void endpoint.handle(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await endpoint?.close();
  await db().$disconnect();
});

/** Ends the live bus's listening backend(s) on the test database, as an administrator or a failover does. */
async function terminateListener(): Promise<number> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
       where application_name = 'manabiya-live' and datname = current_database() and query ilike 'listen%'`,
    );
    return rows[0]!.n;
  } finally {
    await admin.end();
  }
}

describe("the live bus's listening connection, ended mid-lesson", () => {
  it("is opened again: not ready meanwhile, a move made meanwhile reaches every stream, later ones too", async () => {
    const ctx = { schoolId: ids.school, actorId: ids.teacher };
    expect(await startSession(ctx, ids.activity)).toMatchObject({ ok: true });
    const streams = await Promise.all(
      ids.students.map(async (s) => followStream(port, ids.activity, await sessionCookieOf(s, "student", 0))),
    );
    const allOn = (scene: string) => streams.every((s) => s.states().at(-1)?.sceneId === scene);
    try {
      await until(() => allOn(ids.scenes[0]!), "every stream's first state");
      expect(await readiness()).toMatchObject({ ready: true, live: "ok" });

      expect(await terminateListener()).toBe(1);
      await until(
        async () => (await readiness()).live === "reconnecting",
        "not ready while the listener is lost",
        5_000,
      );
      expect(await readiness()).toMatchObject({ ready: false, database: "ok", live: "reconnecting" });
      // the teacher moves on while nobody listens: its notification reaches no one
      expect(await goToScene(ctx, ids.activity, ids.scenes[1]!)).toMatchObject({ ok: true });

      // the listener is back: ready again, and every stream has read the scene it missed
      await until(async () => (await readiness()).ready, "ready again", 15_000);
      await until(() => allOn(ids.scenes[1]!), "every stream on the scene moved to while the listener was lost");

      // and the next move arrives as notified
      expect(await goToScene(ctx, ids.activity, ids.scenes[2]!)).toMatchObject({ ok: true });
      await until(() => allOn(ids.scenes[2]!), "every stream on the next scene");
    } finally {
      for (const s of streams) s.stop();
    }
  });
});
