import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { portOpen } from "../../scripts/lib/port-open";

/**
 * A throw-away cluster of Debian's PostgreSQL 15 (the `postgresql-15` package: the oldest version Manabiya
 * supports, README "Requirements"), initialised in a temporary folder and removed by `stop()`: its own
 * cluster, never the package's `15/main`.
 */
export interface RunningPg15 {
  /** postgresql:// URL of the database `database` on it */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export const PG15_BIN = "/usr/lib/postgresql/15/bin";
const USER = "postgres";
const PASSWORD = "manabiya-pg15";
const INSTALL =
  `PostgreSQL 15 is missing (${PG15_BIN}/initdb): install Debian's postgresql-15 ` +
  "(apt-get install postgresql-15; .ci/run does it, without starting the package's own cluster).";

/** Runs a PostgreSQL 15 program; as root, as the `postgres` user (PostgreSQL refuses to run as root). */
function run(program: string, args: string[]): string {
  const binary = path.join(PG15_BIN, program);
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ["runuser", ["-u", USER, "--", binary, ...args]] : [binary, args];
  return execFileSync(file, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function failure(what: string, error: unknown, log: string): Error {
  const err = error as { stderr?: string; message: string };
  const tail = existsSync(log) ? readFileSync(log, "utf8").split("\n").slice(-15).join("\n") : "";
  return new Error(`PostgreSQL 15: ${what} failed: ${err.stderr || err.message}\n${tail}`.trimEnd());
}

/**
 * Initialises and starts a PostgreSQL 15 cluster on 127.0.0.1:`port` (password authentication, as a server's)
 * in a temporary folder. Fails saying what to install when postgresql-15 is missing, and which port when it
 * is taken.
 */
export async function startPostgres15(port: number): Promise<RunningPg15> {
  if (!existsSync(path.join(PG15_BIN, "initdb"))) throw new Error(INSTALL);
  if (await portOpen(port))
    throw new Error(`Port ${port} is taken: the PostgreSQL 15 cluster of the tests listens on TEST_PG_PORT + 9.`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "manabiya-pg15-"));
  const data = path.join(dir, "data");
  const log = path.join(dir, "postgres.log");
  writeFileSync(path.join(dir, "pwfile"), `${PASSWORD}\n`, { mode: 0o644 });
  if (process.getuid?.() === 0) execFileSync("chown", [USER, dir]);
  chmodSync(dir, 0o755);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    run("initdb", [
      ...["-D", data, "-U", USER, "--auth=scram-sha-256", `--pwfile=${path.join(dir, "pwfile")}`],
      ...["--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"],
    ]);
  } catch (error) {
    remove();
    throw failure("initdb", error, log);
  }
  // a test cluster: no crash safety needed, and its socket in its own folder
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c full_page_writes=off`;
  try {
    run("pg_ctl", ["start", "-D", data, "-l", log, "-w", "-t", "60", "-o", options]);
  } catch (error) {
    const err = failure("start", error, log);
    remove();
    throw err;
  }
  return {
    urlFor: (database) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    async stop() {
      try {
        run("pg_ctl", ["stop", "-D", data, "-m", "fast", "-w"]);
      } finally {
        remove();
      }
    },
  };
}
