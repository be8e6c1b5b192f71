import { access } from "node:fs/promises";
import pg from "pg";
import {
  applyMigration,
  ensureMigrationsTable,
  listMigrations,
  LOCK_KEY,
  type Migration,
} from "../../scripts/lib/migrate";
import { resetSequences } from "./catalog";
import {
  BackupRefused,
  type BackupHeader,
  type BackupReader,
  backupReader,
  DAMAGED,
  FORMAT,
  FORMAT_VERSION,
  headerSchema,
  json,
  SESSION_SETTINGS,
  trailerSchema,
} from "./format";
import { checkMigrations, ensureEmpty, loadTables, verifyTables } from "./restore-steps";

export interface RestoreOptions {
  progress?: (line: string) => void;
  /** This version's migrations (tests give their own list, as to migrate()). */
  migrations?: Migration[];
}

export interface RestoreResult {
  tables: number;
  rows: number;
  /** Migrations newer than the backup, applied after its rows. */
  migratedForward: string[];
}

async function readHeader(read: BackupReader, file: string): Promise<BackupHeader> {
  let first: Buffer;
  try {
    first = await read.next();
  } catch (error) {
    throw new BackupRefused(`${file} is not a Manabiya backup (${(error as Error).message})`);
  }
  const raw = (() => {
    try {
      return JSON.parse(first.toString("utf8")) as unknown;
    } catch {
      return null;
    }
  })();
  const version =
    (raw as { format?: unknown; version?: unknown } | null)?.format === FORMAT
      ? (raw as { version?: unknown }).version
      : undefined;
  if (version === undefined) throw new BackupRefused(`${file} is not a Manabiya backup`);
  if (version !== FORMAT_VERSION)
    throw new BackupRefused(
      `unknown backup format version ${String(version)}: this version of Manabiya reads version ${FORMAT_VERSION} (a backup made by a newer Manabiya: upgrade first)`,
    );
  const header = headerSchema.safeParse(raw);
  if (!header.success) throw new BackupRefused(`${DAMAGED} (its header does not fit format version ${FORMAT_VERSION})`);
  return header.data;
}

/**
 * Restores a backup made by backupDatabase into an EMPTY database, all in one
 * transaction: the backup's migrations, its rows (COPY FROM, referenced tables
 * first, keys deferred where a cycle needs it), the sequences, a check that
 * every table reads back as the file holds it, then the migrations newer than
 * the backup. A damaged, truncated or foreign file changes nothing.
 */
export async function restoreDatabase(
  databaseUrl: string,
  file: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  await access(file).catch((error: Error) => {
    throw new BackupRefused(`cannot read ${file} (${error.message})`);
  });
  const read = backupReader(file);
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    const header = await readHeader(read, file);
    const local = options.migrations ?? (await listMigrations());
    const known = checkMigrations(header, local, progress);
    await client.connect();
    await client.query(SESSION_SETTINGS);
    await client.query("begin");
    try {
      await client.query("select pg_advisory_xact_lock($1)", [LOCK_KEY]);
      const applied = await ensureEmpty(client, header);
      await ensureMigrationsTable(client);
      for (const m of known.slice(applied)) await applyMigration(client, m);
      progress(
        `restore: schema at ${header.migrations.at(-1)?.name ?? "(none)"} (backup of ${header.createdAt} by Manabiya ${header.app})`,
      );
      const digests = await loadTables(client, header, read, progress);
      const expected = read.sha.copy().digest("hex");
      const trailer = trailerSchema.safeParse(json(await read.next(), "its end"));
      if (!trailer.success) throw new BackupRefused(`${DAMAGED} (no end record)`);
      if (trailer.data.sha256 !== expected) throw new BackupRefused(`${DAMAGED} (the file's checksum differs)`);
      if (!(await read.atEnd())) throw new BackupRefused(`${DAMAGED} (data after its end record)`);
      await resetSequences(client);
      await verifyTables(client, header, digests);
      const forward = local.slice(known.length);
      for (const m of forward) {
        await applyMigration(client, m);
        progress(`restore: migrated forward: ${m.name}`);
      }
      await client.query("commit");
      const rows = header.tables.reduce((n, t) => n + t.rows, 0);
      progress(`restore: ${header.tables.length} tables, ${rows} rows restored and checked`);
      return { tables: header.tables.length, rows, migratedForward: forward.map((m) => m.name) };
    } catch (error) {
      await client.query("rollback").catch(() => undefined);
      throw error;
    }
  } finally {
    read.close();
    await client.end().catch(() => undefined);
  }
}
