import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { openClient } from "@/platform/db/connect";

/**
 * Applies prisma/migrations/<stamp>_<name>/migration.sql in order and records
 * them in `_prisma_migrations` exactly as Prisma Migrate does (same table, same
 * sha256 checksum), so `prisma migrate deploy` on a machine that can run
 * Prisma's schema engine sees the same history. (Prisma's own engine cannot be
 * downloaded on our build machines: see docs/database.md.)
 */
export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// Any constant shared by every Manabiya process: serialises concurrent runners (and a restore).
export const LOCK_KEY = 72707369;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

/** The committed migrations not yet applied to the database (all of them on an empty one). Reads only. */
export async function pendingMigrations(databaseUrl: string, migrations?: Migration[]): Promise<string[]> {
  const list = migrations ?? (await listMigrations());
  const client = await openClient(databaseUrl);
  try {
    const exists = await client.query<{ t: string | null }>(`select to_regclass('"_prisma_migrations"')::text as t`);
    if (!exists.rows[0]?.t) return list.map((m) => m.name);
    const done = await client.query<{ migration_name: string }>(
      `select migration_name from "_prisma_migrations" where rolled_back_at is null and finished_at is not null`,
    );
    const applied = new Set(done.rows.map((r) => r.migration_name));
    return list.filter((m) => !applied.has(m.name)).map((m) => m.name);
  } finally {
    await client.end();
  }
}

/** Runs one migration and records it, inside the caller's transaction (`_prisma_migrations` must exist). */
export async function applyMigration(client: pg.ClientBase, m: Migration): Promise<void> {
  const id = randomUUID();
  await client.query(
    `insert into "_prisma_migrations" (id, checksum, migration_name, started_at) values ($1, $2, $3, now())`,
    [id, m.checksum, m.name],
  );
  await client.query(m.sql);
  await client.query(`update "_prisma_migrations" set finished_at = now(), applied_steps_count = 1 where id = $1`, [
    id,
  ]);
}

/** Creates the migrations table when missing (a new database). */
export async function ensureMigrationsTable(client: pg.ClientBase): Promise<void> {
  await client.query(CREATE_TABLE);
}

export async function migrate(databaseUrl: string, migrations?: Migration[]): Promise<MigrateResult> {
  const list = migrations ?? (await listMigrations());
  const client = await openClient(databaseUrl);
  try {
    await client.query("select pg_advisory_lock($1)", [LOCK_KEY]);
    await ensureMigrationsTable(client);
    const done = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `select migration_name, checksum, finished_at from "_prisma_migrations" where rolled_back_at is null`,
    );
    const byName = new Map(done.rows.map((r) => [r.migration_name, r]));
    const applied: string[] = [];
    for (const m of list) {
      const row = byName.get(m.name);
      if (row?.finished_at) {
        if (row.checksum !== m.checksum) {
          console.warn(`warning: migration ${m.name} was edited after it was applied (checksum differs)`);
        }
        continue;
      }
      if (row) throw new Error(`migration ${m.name} failed earlier and must be resolved by hand`);
      await client.query("begin");
      try {
        await applyMigration(client, m);
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw new Error(`migration ${m.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(m.name);
    }
    return { applied, alreadyApplied: list.length - applied.length };
  } finally {
    await client.query("select pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
