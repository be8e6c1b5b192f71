import { createHash } from "node:crypto";
import { once } from "node:events";
import type { WriteStream } from "node:fs";
import { link, lstat, open, readFile, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { createGzip, type Gzip } from "node:zlib";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { LOCK_KEY } from "../../scripts/lib/migrate";
import { listForeignKeys, listTables, loadOrder } from "./catalog";
import {
  BackupRefused,
  END_OF_TABLE,
  FORMAT,
  FORMAT_VERSION,
  type BackupHeader,
  PROGRESS_EVERY,
  quoteIdent,
  RowsDigest,
  SESSION_SETTINGS,
} from "./format";

export interface BackupOptions {
  /** Replace an existing file. */
  force?: boolean;
  /** A line for the operator (the CLI writes it to standard error). */
  progress?: (line: string) => void;
}

export interface BackupResult {
  tables: number;
  rows: number;
  bytes: number;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

const taken = (file: string) => new BackupRefused(`${file} exists: choose another name, or add --force to replace it`);

async function exists(file: string) {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

/**
 * The gzip stream into `tmp` (mode 0600), opened before the first byte: a folder that does not exist
 * or cannot be written is a refusal, not a crash. `write` hashes what it writes and waits for the
 * stream to drain; after a failure (a full disk) the next write throws it.
 */
async function openArchive(tmp: string, file: string) {
  const handle = await open(tmp, "wx", 0o600).catch((error: Error) => {
    throw new BackupRefused(`cannot write ${file} (${error.message})`);
  });
  const out = handle.createWriteStream();
  const gzip = createGzip();
  gzip.pipe(out);
  const state: { failure?: Error } = {};
  gzip.on("error", (error) => (state.failure ??= error));
  out.on("error", (error) => gzip.destroy(error));
  const sha = createHash("sha256");
  const write = async (data: Buffer | string) => {
    if (state.failure) throw state.failure;
    sha.update(data);
    if (!gzip.write(data)) await once(gzip, "drain");
  };
  return { out, gzip, sha, state, write };
}

/** One table's rows (COPY, chunk by chunk) and its end line with the count and digest; the rows copied. */
async function copyTable(
  client: pg.Client,
  table: BackupHeader["tables"][number],
  write: (data: Buffer | string) => Promise<void>,
  progress: (line: string) => void,
): Promise<number> {
  const digest = new RowsDigest();
  const stream = client.query(
    copyTo(`copy ${quoteIdent(table.name)} (${table.columns.map(quoteIdent).join(", ")}) to stdout`),
  );
  let next = PROGRESS_EVERY;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    digest.addChunk(chunk);
    await write(chunk);
    if (digest.rows >= next) {
      progress(`backup: ${table.name} ${digest.rows} of ${table.rows} rows…`);
      next += PROGRESS_EVERY;
    }
  }
  if (digest.rows !== table.rows) throw new Error(`${table.name}: ${digest.rows} rows copied, ${table.rows} counted`);
  await write(`${END_OF_TABLE}\n${JSON.stringify({ table: table.name, rows: digest.rows, digest: digest.hex() })}\n`);
  progress(`backup: ${table.name} ${digest.rows} rows`);
  return digest.rows;
}

/** The finished file's size, once it is on disk (before it takes the final name). */
async function syncedSize(tmp: string): Promise<number> {
  const synced = await open(tmp, "r+");
  await synced.sync();
  const { size } = await synced.stat();
  await synced.close();
  return size;
}

/** `tmp` under its final name: replacing `file` with --force, else never over a file that appeared meanwhile. */
async function moveIntoPlace(tmp: string, file: string, force: boolean | undefined): Promise<void> {
  if (force) return rename(tmp, file);
  // link() never replaces a file that appeared meanwhile; where the file system has no links (a USB stick, some shares), rename after a last look
  const linked = await link(tmp, file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") throw taken(file);
      return false;
    },
  );
  if (linked) await unlink(tmp);
  else if (await exists(file)) throw taken(file);
  else await rename(tmp, file);
}

/**
 * Writes every application table of the database to `file` (format in
 * ./format.ts) from one REPEATABLE READ snapshot: the school keeps answering
 * while it runs and the file is one consistent moment. Streams table by table
 * (memory holds a chunk, never a table), into `file.tmp` (mode 0600: it holds
 * password hashes and sealed sign-in codes), renamed only when complete.
 */
export async function backupDatabase(
  databaseUrl: string,
  file: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (!options.force && (await exists(file))) throw taken(file);
  const tmp = `${file}.tmp`;
  await unlink(tmp).catch(() => undefined);
  const client = new pg.Client({ connectionString: databaseUrl });
  let out: WriteStream | undefined;
  let gzip: Gzip | undefined;
  try {
    await client.connect();
    await client.query(SESSION_SETTINGS);
    await beginSnapshot(client);
    const header = await readHeader(client);
    const archive = await openArchive(tmp, file);
    ({ out, gzip } = archive);
    await archive.write(`${JSON.stringify(header)}\n`);
    let rows = 0;
    for (const table of header.tables) {
      const copied = await copyTable(client, table, archive.write, progress);
      rows += copied;
    }
    await client.query("commit");
    archive.gzip.end(`${JSON.stringify({ end: true, sha256: archive.sha.digest("hex") })}\n`);
    await once(archive.out, "close");
    if (archive.state.failure) throw archive.state.failure;
    const size = await syncedSize(tmp);
    await moveIntoPlace(tmp, file, options.force);
    progress(`backup: ${header.tables.length} tables, ${rows} rows, ${size} bytes written to ${file}`);
    return { tables: header.tables.length, rows, bytes: size };
  } catch (error) {
    gzip?.unpipe();
    gzip?.destroy();
    out?.destroy();
    await unlink(tmp).catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Begins the backup's snapshot when no migration runs (an instance applies them as it
 * starts: scripts/lib/migrate.ts), and locks every table against the next one until the
 * backup ends. A migration that rewrites a table (ALTER TABLE) is not MVCC-safe: a
 * snapshot taken before it committed reads the table as empty.
 */
async function beginSnapshot(client: pg.Client): Promise<void> {
  await client.query("select pg_advisory_lock_shared($1)", [LOCK_KEY]);
  await client.query("begin isolation level repeatable read read only");
  const tables = await listTables(client);
  if (tables.length > 0)
    await client.query(`lock table ${tables.map((t) => quoteIdent(t.name)).join(", ")} in access share mode`);
  await client.query("select pg_advisory_unlock_shared($1)", [LOCK_KEY]);
}

/** The header, read inside the snapshot: the applied migrations, and each table with its row count, referenced tables first. */
async function readHeader(client: pg.Client): Promise<BackupHeader> {
  const migrationsTable = await client.query<{ t: string | null }>(
    `select to_regclass('"_prisma_migrations"')::text as t`,
  );
  if (!migrationsTable.rows[0]?.t)
    throw new BackupRefused("this database has no Manabiya schema (no _prisma_migrations table): nothing to back up");
  const migrations = await client.query<{ name: string; checksum: string }>(
    `select migration_name as name, checksum from "_prisma_migrations" where finished_at is not null and rolled_back_at is null order by migration_name`,
  );
  const tables = await listTables(client);
  const order = loadOrder(
    tables.map((t) => t.name),
    await listForeignKeys(client),
  );
  const byName = new Map(tables.map((t) => [t.name, t]));
  const counted = [];
  for (const name of order) {
    const { rows } = await client.query<{ n: string }>(`select count(*)::text as n from ${quoteIdent(name)}`);
    counted.push({ name, columns: byName.get(name)!.columns, rows: Number(rows[0]!.n) });
  }
  const app = (JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  return {
    format: FORMAT,
    version: FORMAT_VERSION,
    app,
    createdAt: new Date().toISOString(),
    migrations: migrations.rows,
    tables: counted,
  };
}
