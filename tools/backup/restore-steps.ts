import { once } from "node:events";
import { finished } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import type { Migration } from "../../scripts/lib/migrate";
import { keysToDefer, listForeignKeys, listTables } from "./catalog";
import {
  BackupRefused,
  type BackupHeader,
  type BackupReader,
  DAMAGED,
  END_OF_TABLE,
  footerSchema,
  json,
  PROGRESS_EVERY,
  quoteIdent,
  RowsDigest,
} from "./format";

const MIGRATIONS = "_prisma_migrations";

/** The backup's migrations must be this version's first ones (a newer version's backup is refused). Returns them. */
export function checkMigrations(
  header: BackupHeader,
  local: Migration[],
  progress: (line: string) => void,
): Migration[] {
  const names = new Set(local.map((m) => m.name));
  const unknown = header.migrations.find((m) => !names.has(m.name));
  if (unknown) {
    throw new BackupRefused(
      `this backup was made by a newer version of Manabiya (${header.app}; migration ${unknown.name} is unknown here): upgrade this installation, then restore`,
    );
  }
  header.migrations.forEach((m, i) => {
    if (local[i]?.name !== m.name)
      throw new BackupRefused(
        `the backup's migrations are not this version's history (at ${m.name}): restore it with the version that made it`,
      );
    if (local[i].checksum !== m.checksum)
      progress(`restore: warning: migration ${m.name} differs from the one the backup's database ran (checksum)`);
  });
  return local.slice(0, header.migrations.length);
}

export const NOT_EMPTY = (table: string) =>
  `the target database is not empty (table ${table} has rows): restore only fills an empty database, so that nothing is overwritten. ` +
  "Create an empty one (e.g. `createdb -O manabiya manabiya_restored`, or with Docker `docker compose exec db createdb -U manabiya manabiya_restored`) " +
  "and point DATABASE_URL at it; on a developer machine without DATABASE_URL, MANABIYA_FRESH_DB=1 starts the embedded database empty (deleting its data)";

/**
 * Refuses a database with any row in an application table. Returns how many
 * of the backup's migrations it already has (an empty database migrated by
 * `npm start` or the admin tool), refusing one migrated past the backup.
 */
export async function ensureEmpty(client: pg.ClientBase, header: BackupHeader): Promise<number> {
  for (const { name } of await listTables(client)) {
    if (name === MIGRATIONS) continue;
    const { rows } = await client.query<{ any: boolean }>(`select exists (select from ${quoteIdent(name)}) as any`);
    if (rows[0]?.any) throw new BackupRefused(NOT_EMPTY(name));
  }
  const exists = await client.query<{ t: string | null }>(`select to_regclass('"${MIGRATIONS}"')::text as t`);
  if (!exists.rows[0]?.t) return 0;
  const { rows } = await client.query<{ name: string }>(
    `select migration_name as name from "${MIGRATIONS}" where finished_at is not null and rolled_back_at is null order by 1`,
  );
  rows.forEach((r, i) => {
    if (header.migrations[i]?.name !== r.name) {
      throw new BackupRefused(
        `the target database's schema is newer than the backup's (it has migration ${r.name}): restore into a new empty database; the restore migrates it forward itself`,
      );
    }
  });
  return rows.length;
}

/** Streams each table's lines into COPY FROM; checks each table's footer. Returns each table's digest. */
export async function loadTables(
  client: pg.ClientBase,
  header: BackupHeader,
  read: BackupReader,
  progress: (line: string) => void,
) {
  const target = new Map((await listTables(client)).map((t) => [t.name, new Set(t.columns)]));
  for (const t of header.tables) {
    const columns = target.get(t.name);
    const missing = columns ? t.columns.find((c) => !columns.has(c)) : t.name;
    if (missing)
      throw new BackupRefused(
        `the backup holds ${t.name}${columns ? `.${missing}` : ""}, which this database's migrations do not create (a table or column added by hand?)`,
      );
  }
  const deferred = keysToDefer(
    header.tables.map((t) => t.name),
    await listForeignKeys(client),
  );
  for (const k of deferred)
    await client.query(
      `alter table ${quoteIdent(k.table)} alter constraint ${quoteIdent(k.name)} deferrable initially deferred`,
    );
  const digests = new Map<string, string>();
  for (const t of header.tables) {
    if (t.name === MIGRATIONS) await client.query(`delete from "${MIGRATIONS}"`); // the backup's own history replaces the rows just written
    const copy = client.query(
      copyFrom(`copy ${quoteIdent(t.name)} (${t.columns.map(quoteIdent).join(", ")}) from stdin`),
    );
    const digest = new RowsDigest();
    let batch: Buffer[] = [];
    let size = 0;
    const flush = async () => {
      if (!copy.write(Buffer.concat(batch))) await once(copy, "drain");
      batch = [];
      size = 0;
    };
    try {
      for (let line = await read.next(); line.toString() !== END_OF_TABLE; line = await read.next()) {
        digest.add(line);
        batch.push(line, NEWLINE);
        size += line.length + 1;
        if (size >= 1 << 16) await flush();
        if (digest.rows % PROGRESS_EVERY === 0) progress(`restore: ${t.name} ${digest.rows} of ${t.rows} rows…`);
      }
      copy.end(Buffer.concat(batch));
      await finished(copy);
    } catch (error) {
      copy.destroy(error as Error); // ends the COPY on the server (CopyFail) so that the rollback can run
      await finished(copy).catch(() => undefined);
      throw error;
    }
    const footer = footerSchema.safeParse(json(await read.next(), `the end of ${t.name}`));
    const hex = digest.hex();
    if (!footer.success || footer.data.table !== t.name)
      throw new BackupRefused(`${DAMAGED} (the end of ${t.name} is missing)`);
    if (footer.data.rows !== digest.rows || t.rows !== digest.rows || footer.data.digest !== hex) {
      throw new BackupRefused(
        `${DAMAGED}: the checksum of ${t.name} differs (${digest.rows} rows read, ${t.rows} written)`,
      );
    }
    digests.set(t.name, hex);
    progress(`restore: ${t.name} ${digest.rows} rows`);
  }
  await client.query("set constraints all immediate"); // the deferred keys are checked here
  for (const k of deferred) {
    const back = k.deferrable ? `deferrable initially ${k.deferred ? "deferred" : "immediate"}` : "not deferrable";
    await client.query(`alter table ${quoteIdent(k.table)} alter constraint ${quoteIdent(k.name)} ${back}`);
  }
  return digests;
}

const NEWLINE = Buffer.from("\n");

/** Reads every restored table back (COPY TO) and compares it with the backup's digest: the database holds exactly the file. */
export async function verifyTables(client: pg.ClientBase, header: BackupHeader, digests: Map<string, string>) {
  for (const t of header.tables) {
    const digest = new RowsDigest();
    const stream = client.query(
      copyTo(`copy ${quoteIdent(t.name)} (${t.columns.map(quoteIdent).join(", ")}) to stdout`),
    );
    for await (const chunk of stream as AsyncIterable<Buffer>) digest.addChunk(chunk);
    if (digest.hex() !== digests.get(t.name))
      throw new Error(
        `the restored table ${t.name} differs from the backup (${digest.rows} rows): nothing was restored`,
      );
  }
}
