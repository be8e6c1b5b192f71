/**
 * The live bus's listening connection comes back (platform/notify/listen.ts): mid-lesson its backend is
 * ended (pg_terminate_backend, as a failover or an administrator does), or stops answering without a word
 * (SIGSTOP: as a network blip or a vanished server looks from here). Meanwhile the instance is not ready
 * (GET /readyz's check: platform/ops/health.ts); the teacher's move made while nobody listens reaches every
 * open stream once the connection is back (each re-reads its state), and later moves arrive as notified.
 * On a database of its own, so that the only listening connection on it is this process's.
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
import { checkListener } from "@/platform/notify/listen";
import { readiness } from "@/platform/ops/health";
import { createActivityFromTemplate, createUser } from "../../../prisma/seed/factories";
import { migrate } from "../../../scripts/lib/migrate";
import { dropDatabase, emptyDatabase } from "../../../tests/support/helpers";
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
let database: { name: string; url: string };

beforeAll(async () => {
  database = await emptyDatabase("live_reconnect");
  await migrate(database.url);
  process.env.DATABASE_URL = database.url; // read on first use
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
  if (database) await dropDatabase(database.name);
});

/** Runs `sql` on the test database's live bus's listening backend (its pid as $1); how many there were. */
async function onListener(sql: string): Promise<number[]> {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where application_name = 'manabiya-live' and datname = current_database()`,
    );
    for (const { pid } of rows) await admin.query(sql, [pid]);
    return rows.map((r) => r.pid);
  } finally {
    await admin.end();
  }
}

describe("the live bus's listening connection, lost mid-lesson, comes back", () => {
  const ctx = () => ({ schoolId: ids.school, actorId: ids.teacher });
  let streams: Awaited<ReturnType<typeof followStream>>[] = [];
  const allOn = (scene: string) => streams.every((s) => s.states().at(-1)?.sceneId === scene);
  beforeAll(async () => {
    expect(await startSession(ctx(), ids.activity)).toMatchObject({ ok: true });
    streams = await Promise.all(
      ids.students.map(async (s) => followStream(port, ids.activity, await sessionCookieOf(s, "student", 0))),
    );
    await until(() => allOn(ids.scenes[0]!), "every stream's first state");
  });
  afterAll(() => {
    for (const s of streams) s.stop();
  });

  /** After the listener is lost: not ready, a move made meanwhile reaches every stream once it is back, the next one too. */
  async function recovers(lose: () => Promise<void>, [missed, next]: [string, string]) {
    expect(await readiness()).toMatchObject({ ready: true, live: "ok" });
    await lose();
    expect(await readiness()).toMatchObject({ ready: false, database: "ok", live: "reconnecting" });
    // the teacher moves on while nobody listens: its notification reaches no one
    expect(await goToScene(ctx(), ids.activity, missed)).toMatchObject({ ok: true });
    // the listener is back: ready again, and every stream has read the scene it missed
    await until(async () => (await readiness()).ready, "ready again", 15_000);
    await until(() => allOn(missed), "every stream on the scene moved to while the listener was lost");
    // and the next move arrives as notified
    expect(await goToScene(ctx(), ids.activity, next)).toMatchObject({ ok: true });
    await until(() => allOn(next), "every stream on the next scene");
  }

  it("its backend ended (pg_terminate_backend)", async () => {
    await recovers(async () => {
      expect(await onListener("select pg_terminate_backend($1)")).toHaveLength(1);
      await until(async () => !(await checkListener()), "the listener found lost", 5_000);
    }, [ids.scenes[1]!, ids.scenes[2]!]);
  });

  it("its backend silent (stopped): found by the check within seconds", async () => {
    let stopped: number[] = [];
    try {
      await recovers(async () => {
        stopped = await onListener("select 1 where $1::int is not null");
        expect(stopped).toHaveLength(1);
        process.kill(stopped[0]!, "SIGSTOP");
      }, [ids.scenes[3]!, ids.scenes[4]!]);
    } finally {
      for (const pid of stopped) process.kill(pid, "SIGCONT");
    }
  });
});
