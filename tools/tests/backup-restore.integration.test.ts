import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCode, checkPassword } from "@/platform/auth/credentials";
import { createPrismaClient } from "@/platform/db/client";
import { db } from "@/platform/db";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { backupDatabase } from "../backup/backup";
import { restoreDatabase } from "../backup/restore";
import { ACADEMIES_WAITING_SQL } from "@/features/lti/server/lrs-queries";
import { packStatement, statementJson } from "@/features/lti/server/xapi-body";
import { listMigrations, migrate } from "../../scripts/lib/migrate";
import { seedSchool, sql, STUDENT_PASSWORD, tableRows } from "../../tests/support/backup-helpers";
import { dropDatabase, emptyDatabase } from "../../tests/support/helpers";

/**
 * `npm run admin -- backup|restore` (docs/adr/0045-own-logical-backups.md): a school's
 * database backed up while it is in use and restored into an empty one, with
 * every row; a bad file or a non-empty target changes nothing.
 */
const dbs: string[] = [];
async function newDatabase(migrated = false) {
  const made = await emptyDatabase("backup");
  dbs.push(made.name);
  if (migrated) await migrate(made.url);
  return made.url;
}
const quiet = { progress: () => undefined };

let dir: string;
let source: string;
let restored: string;
let prisma: PrismaClient;
let seeded: Awaited<ReturnType<typeof seedSchool>>;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "manabiya-backup-"));
  source = await newDatabase(true);
  restored = await newDatabase();
  // the app's own sign-in code reads the restored database
  process.env.DATABASE_URL = restored;
  prisma = createPrismaClient(source, 4);
  seeded = await seedSchool(prisma);
  await waitingStatements(prisma, source);
  file = path.join(dir, "school.backup");
  await backupDatabase(source, file, quiet);
}, 120_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await db().$disconnect();
  for (const name of dbs) await dropDatabase(name);
  await rm(dir, { recursive: true, force: true });
});

/**
 * A statement waiting for the academy's LRS and one sent, and pg-boss's own schema with a job in it (as the first
 * server that publishes makes it): what a backup holds of the learning records' queue.
 */
const packed = (id: string) => new Uint8Array(packStatement(JSON.stringify({ id })));

async function waitingStatements(client: PrismaClient, url: string) {
  const { id: academyId } = await client.academy.findFirstOrThrow({ select: { id: true } });
  const ids = [randomUUID(), randomUUID()];
  const createdAt = new Date();
  await client.xapiStatement.createMany({
    data: ids.map((id) => ({
      id,
      academyId,
      activityId: id,
      userId: id,
      verb: "answered",
      createdAt,
      body: packed(id),
    })),
  });
  // the first waits; the second, with no waiting row, was sent
  await client.xapiStatementWaiting.create({ data: { id: ids[0]!, academyId, createdAt, rank: 1 } });
  await sql(url, `create schema pgboss; create table pgboss.job (id uuid primary key, name text)`);
  await sql(url, `insert into pgboss.job values (gen_random_uuid(), 'answers.written')`);
}

async function isBare(url: string) {
  const rows = await sql<{ n: number }>(
    url,
    `select count(*)::int as n from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`,
  );
  return rows[0]!.n === 0;
}

/** The backup's uncompressed text, changed by `edit`, compressed again (a valid gzip with other content). */
async function edited(edit: (text: string) => string) {
  const text = gunzipSync(await readFile(file)).toString("utf8");
  const out = path.join(dir, `edited-${Math.random().toString(36).slice(2)}.backup`);
  await writeFile(out, gzipSync(Buffer.from(edit(text), "utf8")));
  return out;
}

describe("backup and restore", () => {
  it("restores into an empty database every row of every table, and students still sign in", async () => {
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const result = await restoreDatabase(restored, file, quiet);
    expect(result.rows).toBeGreaterThan(0);
    const [before, after] = [await tableRows(source), await tableRows(restored)];
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(after).toEqual(before);
    const answers = await sql<{ type: string }>(
      restored,
      `select distinct s.type::text as type from responses r join activity_scenes s on s.id = r.scene_id`,
    );
    expect(answers.map((a) => a.type).sort()).toEqual([
      "free_text",
      "info",
      "multiple_choice",
      "scale",
      "single_choice",
      "two_step",
    ]);
    expect(after.guide_presence).toHaveLength(4);
    // sequences continue after the restored rows
    const [{ max }] = (await sql<{ max: string }>(restored, `select max(id)::text as max from audit_logs`)) as [
      { max: string },
    ];
    const [{ id }] = (await sql<{ id: string }>(
      restored,
      `insert into audit_logs (action) values ('after.restore') returning id::text`,
    )) as [{ id: string }];
    expect(BigInt(id)).toBeGreaterThan(BigInt(max));

    const student = seeded.codes[0]!;
    expect(await checkPassword({ email: student.email, password: STUDENT_PASSWORD }, "192.0.2.9")).toEqual({
      ok: true,
      user: { id: student.userId, role: "student" },
    });
    expect(await checkCode(seeded.codes[1]!.code, "192.0.2.9")).toEqual({
      ok: true,
      user: { id: seeded.codes[1]!.userId, role: "student" },
    });
  });

  it("statements waiting for the LRS are waiting after a restore, and the queue's sweep finds their academy; pg-boss's own schema is not in the file", async () => {
    const target = await newDatabase();
    await restoreDatabase(target, file, quiet);
    const [academy] = await sql<{ id: string }>(source, `select id::text from academies`);
    const waiting = await sql<{ academy_id: string }>(target, ACADEMIES_WAITING_SQL);
    expect(waiting.map((r) => String(r.academy_id))).toEqual([academy!.id]);
    const states = await sql<{ state: string; body: Buffer }>(
      target,
      `select case when w.id is null then 'sent' else 'waiting' end as state, s.body
       from xapi_statements s left join xapi_statements_waiting w using (id) order by state`,
    );
    expect(states.map((r) => r.state)).toEqual(["sent", "waiting"]);
    expect(states.map((r) => JSON.parse(statementJson(r.body)))).toEqual(
      expect.arrayContaining([{ id: expect.any(String) }]),
    );
    // the jobs themselves stay behind: the first server to publish makes pg-boss's schema again
    const boss = await sql<{ n: number }>(
      target,
      `select count(*)::int as n from pg_namespace where nspname = 'pgboss'`,
    );
    expect(boss[0]!.n).toBe(0);
  });

  it("never overwrites a file without --force, and never leaves a half file under the name", async () => {
    const before = await readFile(file);
    await expect(backupDatabase(source, file, quiet)).rejects.toThrow(/exists/);
    expect(await readFile(file)).toEqual(before);
    await backupDatabase(source, file, { ...quiet, force: true });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await expect(stat(`${file}.tmp`)).rejects.toThrow();
    await expect(
      backupDatabase("postgresql://nobody@127.0.0.1:1/none", path.join(dir, "never.backup"), quiet),
    ).rejects.toThrow();
    await expect(stat(path.join(dir, "never.backup"))).rejects.toThrow();
    await expect(stat(path.join(dir, "never.backup.tmp"))).rejects.toThrow();
  });

  it("refuses a database that has any row, and changes nothing in it", async () => {
    const before = await tableRows(source);
    await expect(restoreDatabase(source, file, quiet)).rejects.toThrow(/not empty/);
    expect(await tableRows(source)).toEqual(before);
  });

  it("refuses a truncated or corrupted file and leaves the target empty", async () => {
    const bytes = await readFile(file);
    const truncated = path.join(dir, "truncated.backup");
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    const target = await newDatabase();
    await expect(restoreDatabase(target, truncated, quiet)).rejects.toThrow();
    expect(await isBare(target)).toBe(true);

    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    const corrupt = path.join(dir, "corrupt.backup");
    await writeFile(corrupt, flipped);
    await expect(restoreDatabase(target, corrupt, quiet)).rejects.toThrow();
    expect(await isBare(target)).toBe(true);

    // a valid gzip whose content was changed: one answer's text
    const changed = await edited((t) => t.replace("理由があります", "理由がありません"));
    await expect(restoreDatabase(target, changed, quiet)).rejects.toThrow(/checksum/);
    expect(await isBare(target)).toBe(true);
    // the end left off at a line boundary
    const cut = await edited((t) => t.slice(0, t.lastIndexOf("\n", t.length - 2) + 1));
    await expect(restoreDatabase(target, cut, quiet)).rejects.toThrow(/incomplete|truncated/);
    expect(await isBare(target)).toBe(true);
  });

  it("refuses an unknown format version and a backup made by a newer version (unknown migration)", async () => {
    const target = await newDatabase();
    const future = await edited((t) => t.replace(/"version":1\b/, '"version":99'));
    await expect(restoreDatabase(target, future, quiet)).rejects.toThrow(/format version 99/);
    const newer = await edited((t) =>
      t.replace(/"migrations":\[/, '"migrations":[{"name":"29990101000000_future","checksum":"x"},'),
    );
    await expect(restoreDatabase(target, newer, quiet)).rejects.toThrow(/newer/);
    await writeFile(path.join(dir, "not.backup"), "hello");
    await expect(restoreDatabase(target, path.join(dir, "not.backup"), quiet)).rejects.toThrow(/not a Manabiya backup/);
    expect(await isBare(target)).toBe(true);
  });

  it("restores an older version's backup at its migration level, then migrates it forward", async () => {
    const all = await listMigrations();
    const old = await newDatabase();
    await migrate(old, all.slice(0, 1));
    await sql(
      old,
      `insert into academies (id, name, name_kana, updated_at) values (gen_random_uuid(), '旧版', 'きゅうはん', now())`,
    );
    const oldFile = path.join(dir, "old.backup");
    await backupDatabase(old, oldFile, quiet);
    const target = await newDatabase();
    const result = await restoreDatabase(target, oldFile, quiet);
    expect(result.migratedForward).toEqual(all.slice(1).map((m) => m.name));
    expect((await sql<{ name: string }>(target, `select name from academies`)).map((r) => r.name)).toEqual(["旧版"]);
    const applied = await sql<{ migration_name: string }>(
      target,
      `select migration_name from _prisma_migrations where finished_at is not null order by 1`,
    );
    expect(applied.map((r) => r.migration_name)).toEqual(all.map((m) => m.name));
  });

  it("takes one consistent snapshot while answers keep being written", async () => {
    const busy = await newDatabase(true);
    await seedSchool(createPrismaClient(busy, 2), 1);
    const writer = new pg.Client({ connectionString: busy });
    await writer.connect();
    let stop = false;
    let written = 0;
    // each transaction adds a row to two tables: a consistent copy holds as many of one as of the other
    const writing = (async () => {
      while (!stop) {
        await writer.query("begin");
        await writer.query(`insert into signin_throttles (key, failures, window_start) values ($1, 1, now())`, [
          `snap:${written}`,
        ]);
        await writer.query(`insert into audit_logs (action, target_id) values ('snap', $1)`, [String(written)]);
        await writer.query("commit");
        written++;
      }
    })();
    while (written < 20) await new Promise((r) => setTimeout(r, 5));
    const busyFile = path.join(dir, "busy.backup");
    const startedAt = written;
    await backupDatabase(busy, busyFile, quiet);
    const seen = written;
    stop = true;
    await writing;
    await writer.end();
    expect(seen).toBeGreaterThan(startedAt);
    const target = await newDatabase();
    await restoreDatabase(target, busyFile, quiet);
    const [a] = await sql<{ n: number }>(
      target,
      `select count(*)::int as n from signin_throttles where key like 'snap:%'`,
    );
    const [b] = await sql<{ n: number }>(target, `select count(*)::int as n from audit_logs where action = 'snap'`);
    expect(a!.n).toBeGreaterThan(0);
    expect(a!.n).toBe(b!.n);
  }, 120_000);
});
