/**
 * PostgreSQL 15, the oldest version Manabiya supports (README "Requirements"; the rest of the suite runs on the
 * embedded PostgreSQL 18): on a throw-away cluster of Debian's postgresql-15 (tests/support/postgres-15.ts, on
 * TEST_PG_PORT + 9), `npm run db:migrate` applies every migration to an empty database, then the app's own code
 * runs a slice of a lesson on it: sign-in by password and by code, start, 次へ (the batch of the production
 * server's endpoint), a class's answers saved at once, the students' live streams, the results, the
 * readiness check, and a backup (which reads the catalogues) restored into an empty database. Fails saying what to install when postgresql-15 is missing.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../tests/support/next-headers-fake"));

import { db } from "@/platform/db";
import { COUNTS_DEBOUNCE_MS } from "@/platform/notify/channel";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { checkCode, checkPassword } from "@/platform/auth/credentials";
import { readiness } from "@/platform/ops/health";
import { startSession } from "@/features/play/server/session-commands";
import { activityStats } from "@/features/results/server/stats";
import { createActivityFromTemplate, createSigninCode, createUser } from "../../prisma/seed/factories";
import { listMigrations, pendingMigrations } from "../../scripts/lib/migrate";
import { runAdmin, runScript } from "../../tests/support/admin-run";
import { tableRows } from "../../tests/support/backup-helpers";
import { TEST_SIGNIN_CODE_KEY } from "../../tests/support/helpers";
import { type LiveEndpoints, serveLiveEndpoints } from "../../tests/support/live-endpoints";
import { followStream, until } from "../../tests/support/live-stream";
import { sessionCookieOf } from "../../tests/support/next-headers-fake";
import { type RunningPg15, startPostgres15 } from "../../tests/support/postgres-15";
import { twoSchools } from "../../tests/support/two-schools";

const STUDENTS = 6;
const PASSWORD = "correct horse battery";
let cluster: RunningPg15 | undefined;
let databaseUrl = "";
let migrated = { code: null as number | null, out: "", err: "" };
const ids = {} as {
  school: AuthorizedSchoolId;
  teacher: string;
  students: { id: string; email: string; code: string }[];
  activity: string;
  scenes: { id: string; type: string }[];
};
let live: LiveEndpoints | undefined;

async function seed() {
  const { tag, school } = await twoSchools();
  ids.school = school.id as AuthorizedSchoolId;
  ids.teacher = (await createUser(db(), { role: "teacher", email: `t-${tag}@t.example`, schoolId: school.id })).id;
  ids.students = [];
  for (let n = 1; n <= STUDENTS; n++) {
    const user = await createUser(db(), {
      role: "student",
      email: `s${n}-${tag}@t.example`,
      password: PASSWORD,
      schoolId: school.id,
      student: { grade: 1, className: "1", number: n },
    });
    const code = await createSigninCode(db(), user.id, TEST_SIGNIN_CODE_KEY);
    ids.students.push({ id: user.id, email: user.email!, code });
  }
  ids.activity = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school.id, mode: "guide" })
  ).id;
  ids.scenes = await db().activityScene.findMany({
    where: { activityId: ids.activity },
    orderBy: { position: "asc" },
    select: { id: true, type: true },
  });
}

beforeAll(async () => {
  cluster = await startPostgres15(Number(new URL(inject("adminUrl")).port) + 9);
  const admin = new pg.Client({ connectionString: cluster.urlFor("postgres") });
  await admin.connect();
  await admin.query("create database manabiya");
  await admin.end();
  databaseUrl = cluster.urlFor("manabiya");
  // `npm run db:migrate` as an operator runs it against the server (scripts/db.ts, scripts/lib/migrate.ts)
  migrated = await runScript("scripts/db.ts", databaseUrl, ["migrate"]);
  if (migrated.code !== 0) throw new Error(`npm run db:migrate failed on PostgreSQL 15:\n${migrated.err}`);
  // the app's settings point at it (read on first use)
  process.env.DATABASE_URL = databaseUrl;
  delete process.env.DATABASE_DIRECT_URL;
  await seed();
  // the production server's endpoints, each with its pool on the app's database (PostgreSQL 15's)
  live = await serveLiveEndpoints({ answers: 4, advance: 4, streams: 2 });
});
afterAll(async () => {
  // the answers' debounced counts notification goes out before the endpoints' pools close
  await new Promise((r) => setTimeout(r, COUNTS_DEBOUNCE_MS + 200));
  await live?.close();
  if (databaseUrl) await db().$disconnect();
  await cluster?.stop();
});

const press = (sceneId: string) => live!.press(ids.activity, ids.teacher, sceneId);
const answer = (student: string, sceneId: string, revision: number) =>
  live!.answer(ids.activity, student, sceneId, revision);

describe("PostgreSQL 15", () => {
  it("npm run db:migrate applies every migration to an empty database; the app finds them current", async () => {
    const version = await db().$queryRaw<{ v: number }[]>`select current_setting('server_version_num')::int as v`;
    expect(Math.floor(version[0]!.v / 10_000)).toBe(15);
    const all = await listMigrations();
    expect(migrated.out).toContain(`${all.length} migration(s) applied, 0 already in place`);
    expect(await pendingMigrations(databaseUrl)).toEqual([]);
    expect(await readiness()).toMatchObject({ ready: true, database: "ok", migrations: "current" });
  });

  it("a class signs in by password and by code; a wrong password is refused", async () => {
    const ip = "203.0.113.15";
    const results = await Promise.all(
      ids.students.flatMap((s) => [
        checkPassword({ email: s.email, password: PASSWORD }, ip),
        checkCode(s.code, ip),
        checkPassword({ email: s.email, password: "nope" }, ip),
      ]),
    );
    expect(results).toEqual(
      ids.students.flatMap((s) => [
        { ok: true, user: { id: s.id, role: "student" } },
        { ok: true, user: { id: s.id, role: "student" } },
        { ok: false, code: "wrongPassword" },
      ]),
    );
  });

  it("a live lesson: start, 次へ followed by every stream, answers saved at once and again, results count them", async () => {
    expect(await startSession({ schoolId: ids.school, actorId: ids.teacher }, ids.activity)).toMatchObject({
      ok: true,
    });
    const streams = await Promise.all(
      ids.students
        .slice(0, 3)
        .map(async (s) => followStream(live!.ports.streams, ids.activity, await sessionCookieOf(s.id, "student", 0))),
    );
    const choice = ids.scenes.find((s) => s.type === "single_choice")!;
    try {
      await until(() => streams.every((s) => s.states().length > 0), "every stream's first state");
      for (const scene of ids.scenes.slice(1, ids.scenes.indexOf(choice) + 1)) {
        expect(await Promise.all([press(scene.id), press(scene.id)])).toEqual([200, 200]);
        await until(() => streams.every((s) => s.states().at(-1)?.sceneId === scene.id), `every stream on ${scene.id}`);
      }
    } finally {
      for (const s of streams) s.stop();
    }
    for (const revision of [1, 2, 3]) {
      const statuses = await Promise.all(ids.students.map((s) => answer(s.id, choice.id, revision)));
      expect(statuses).toEqual(ids.students.map(() => 200));
    }
    const stats = (await activityStats(ids.school, ids.activity, {}))!;
    const scene = stats.scenes.find((s) => s.id === choice.id);
    expect(scene?.answered).toBe(STUDENTS);
    expect(scene?.choices).toEqual({ clear: STUDENTS });
  });

  it("npm run admin -- backup, then restore into an empty database: every row back", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "manabiya-pg15-backup-"));
    try {
      const admin = new pg.Client({ connectionString: cluster!.urlFor("postgres") });
      await admin.connect();
      await admin.query("create database manabiya_restored");
      await admin.end();
      const restored = cluster!.urlFor("manabiya_restored");
      const file = path.join(dir, "school.backup");
      const backup = await runAdmin(databaseUrl, ["backup", file]);
      expect(backup, backup.err).toMatchObject({ code: 0 });
      const restore = await runAdmin(restored, ["restore", file]);
      expect(restore, restore.err).toMatchObject({ code: 0 });
      const withoutCli = (rows: Record<string, string[]>) => ({
        ...rows,
        audit_logs: rows.audit_logs!.filter((r) => !/admin\.(backup|restore)/.test(r)),
      });
      expect(withoutCli(await tableRows(restored))).toEqual(withoutCli(await tableRows(databaseUrl)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
