/**
 * The session-bound work behind a transaction pooler (PgBouncer 1.18 in transaction mode:
 * tests/support/pgbouncer.ts), with DATABASE_URL through it and DATABASE_DIRECT_URL straight to the database,
 * as an operator runs the commands: migrations on an empty database (two instances starting at once, each
 * taking the migrations' lock), a backup and a restore. Their locks and session settings stay in their own
 * session: none is left behind in a pooled server connection, where the next client would inherit it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "@/platform/db/client";
import { listMigrations } from "../../scripts/lib/migrate";
import { runAdmin, runScript } from "../../tests/support/admin-run";
import { seedSchool, sql, tableRows } from "../../tests/support/backup-helpers";
import { dropDatabase, emptyDatabase } from "../../tests/support/helpers";
import { throughPooler } from "../../tests/support/pooler";

const made: string[] = [];
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "manabiya-pooled-"));
});
afterAll(async () => {
  for (const name of made) await dropDatabase(name);
  await rm(dir, { recursive: true, force: true });
});

async function database(prefix: string) {
  const db = await emptyDatabase(prefix);
  made.push(db.name);
  return { ...db, pooled: throughPooler(db.url), env: { DATABASE_DIRECT_URL: db.url } };
}

/** What a client of the pooler finds in the server sessions it is given: advisory locks held, a setting changed. */
async function leftInThePool(pooledUrl: string, directUrl: string) {
  const clients = await Promise.all(
    Array.from({ length: 6 }, async () => {
      const client = new pg.Client({ connectionString: pooledUrl });
      await client.connect();
      return client;
    }),
  );
  try {
    // six at once, each in a transaction: six server sessions, the ones the commands used among them
    await Promise.all(clients.map((c) => c.query("begin")));
    const settings = await Promise.all(
      clients.map(
        async (c) => (await c.query<{ v: string }>("select current_setting('extra_float_digits') as v")).rows,
      ),
    );
    await Promise.all(clients.map((c) => c.query("commit")));
    const locks = await sql<{ n: number }>(
      directUrl,
      `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
       where l.locktype = 'advisory' and d.datname = current_database()`,
    );
    return { advisoryLocks: locks[0]!.n, settings: [...new Set(settings.flat().map((r) => r.v))] };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

describe("session-bound work behind a transaction pooler", () => {
  it("two instances migrating an empty database at once: one applies every migration, the other waits and finds them", async () => {
    const db = await database("pooled_migrate");
    const runs = await Promise.all(
      [0, 1].map(() => runScript("scripts/db.ts", db.pooled, ["migrate"], undefined, db.env)),
    );
    for (const run of runs) expect(run, run.err).toMatchObject({ code: 0 });
    const shipped = (await listMigrations()).map((m) => m.name);
    const applied = await sql<{ migration_name: string }>(
      db.url,
      `select migration_name from "_prisma_migrations" where finished_at is not null order by migration_name`,
    );
    expect(applied.map((r) => r.migration_name)).toEqual(shipped);
    expect(runs.map((r) => r.out).sort()).toEqual([
      `0 migration(s) applied, ${shipped.length} already in place\n`,
      `${shipped.length} migration(s) applied, 0 already in place\n`,
    ]);
    expect(await leftInThePool(db.pooled, db.url)).toEqual({ advisoryLocks: 0, settings: ["1"] });
  }, 120_000);

  it("backs up and restores: every row back, no lock or setting of theirs left in the pool", async () => {
    const source = await database("pooled_backup");
    const target = await database("pooled_restore");
    expect((await runScript("scripts/db.ts", source.pooled, ["migrate"], undefined, source.env)).code).toBe(0);
    const prisma = createPrismaClient(source.url, 2);
    await seedSchool(prisma, 2);
    await prisma.$disconnect();

    const file = path.join(dir, "school.backup");
    const backup = await runAdmin(source.pooled, ["backup", file], undefined, source.env);
    expect(backup, backup.err).toMatchObject({ code: 0 });
    const restore = await runAdmin(target.pooled, ["restore", file], undefined, target.env);
    expect(restore, restore.err).toMatchObject({ code: 0 });

    const withoutCli = (rows: Record<string, string[]>) => ({
      ...rows,
      audit_logs: rows.audit_logs!.filter((r) => !/admin\.(backup|restore)/.test(r)),
    });
    expect(withoutCli(await tableRows(target.url))).toEqual(withoutCli(await tableRows(source.url)));
    expect(await leftInThePool(source.pooled, source.url)).toEqual({ advisoryLocks: 0, settings: ["1"] });
    expect(await leftInThePool(target.pooled, target.url)).toEqual({ advisoryLocks: 0, settings: ["1"] });
  }, 120_000);
});
