import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase } from "../backup/backup";
import { restoreDatabase } from "../backup/restore";
import { listMigrations, type Migration, migrate } from "../../scripts/lib/migrate";
import { sql, tableRows } from "../../tests/support/backup-helpers";
import { dropDatabase, emptyDatabase } from "../../tests/support/helpers";

/**
 * A backup started while an instance applies a migration (an upgrade: `npm start`
 * migrates as it starts). A migration that rewrites a table (ALTER TABLE with a
 * volatile default, a type change) is not MVCC-safe: a snapshot taken before it
 * committed reads the rewritten table as empty. The backup must wait for the
 * migration and take its snapshot after it, never save the table empty.
 */
const GATE = 72707370;
const REWRITE = `
ALTER TABLE "signin_throttles" ADD COLUMN "zz_tmp" INT NOT NULL DEFAULT (random() * 0)::int;
ALTER TABLE "signin_throttles" DROP COLUMN "zz_tmp";
SELECT pg_advisory_xact_lock(${GATE});`;

const names: string[] = [];
let dir: string | undefined;
afterAll(async () => {
  for (const name of names) await dropDatabase(name);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function until(url: string, what: string, check: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [row] = await sql<{ ok: boolean }>(url, check);
    if (row?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("a backup while a migration runs", () => {
  it("waits for the migration and saves every row of a table the migration rewrote", async () => {
    const migrations: Migration[] = [
      ...(await listMigrations()),
      { name: "29990101000000_test_rewrite", sql: REWRITE, checksum: "test" },
    ];
    const source = await emptyDatabase("backup_migrating");
    const target = await emptyDatabase("backup_migrating_target");
    names.push(source.name, target.name);
    await migrate(source.url, migrations.slice(0, -1));
    await sql(
      source.url,
      `insert into signin_throttles (key, failures) select 'ip:192.0.2.' || n, n from generate_series(1, 50) n`,
    );
    dir = await mkdtemp(path.join(tmpdir(), "manabiya-migrating-"));
    const file = path.join(dir, "migrating.backup");

    // the migration rewrites the table, then waits at a gate the test holds, its transaction open
    const gate = new pg.Client({ connectionString: source.url });
    await gate.connect();
    try {
      await gate.query("select pg_advisory_lock($1)", [GATE]);
      const migrating = migrate(source.url, migrations);
      const waiting = `select count(*) as n from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`;
      await until(source.url, "the migration at its gate", `select (${waiting}) >= 1 as ok`);
      const backingUp = backupDatabase(source.url, file, { progress: () => undefined });
      // the backup is blocked too (on the migration's lock, whichever it meets first)
      await until(source.url, "the backup to wait", `select (${waiting}) >= 2 as ok`);
      await gate.query("select pg_advisory_unlock($1)", [GATE]);
      await migrating;
      await backingUp;
    } finally {
      await gate.end();
    }

    await restoreDatabase(target.url, file, { progress: () => undefined, migrations });
    const restored = await tableRows(target.url);
    expect(restored.signin_throttles).toHaveLength(50);
    expect(restored).toEqual(await tableRows(source.url));
  }, 120_000);
});
