import pg from "pg";
import { errorField, log } from "@/platform/ops/log";
import { watchPool } from "@/platform/ops/metrics";
import { appDatabase, type PoolTimeouts } from "./settings";

/**
 * Every connection the app makes to its database is built here: the pools (Prisma's, platform/db/index.ts through
 * platform/db/client.ts; the production server's endpoints for answers, "next scene" and students' event
 * streams) and the live bus's listening connection (platform/notify/listen.ts), with the settings of
 * platform/db/settings.ts (where the database is, how long to wait for it). Framework-free and without Prisma:
 * the production server loads the endpoints before Next.js, and platform/db/client.ts builds the Prisma client
 * over createPool.
 */

/**
 * What a pool serves: its name in the metrics (README.md "Metrics") and in the log line of a failed idle
 * connection. `tool`: a Prisma client of its own (the seed, the command-line tools, tests, the sign-in
 * sheets' renderer process).
 */
export type PoolName = "prisma" | "answers" | "advance" | "streams" | "tool";

/** What one pool differs in from the others. */
export interface PoolSpec {
  name: PoolName;
  max: number;
  /** another database than the app's (DATABASE_URL): a tool's, a test's, a job's */
  url?: string;
  /**
   * The waits (poolTimeoutOptions): each one left out is the app's (DB_CONNECT_TIMEOUT_MS,
   * DB_STATEMENT_TIMEOUT_MS). `null`: none (the tools' and tests' own clients).
   */
  timeouts: Partial<PoolTimeouts> | null;
  /** more settings of every connection, as `-c name=value` (with the timeouts only) */
  settings?: string;
  applicationName?: string;
  /** its connections in the metrics (platform/ops/metrics.ts) */
  watched?: boolean;
  /** a connection that fails while idle is logged (`<name>.pool.failed`); Prisma's adapter listens for it on its own pool */
  logIdleFailures?: boolean;
}

/**
 * The timeouts of the app's pools: during a database outage requests fail within seconds and the pool
 * reconnects by itself once it is back. A session idle in a transaction (a client that vanished
 * mid-transaction) is ended after 30 s so its locks go.
 */
function poolTimeoutOptions(timeouts: PoolTimeouts, settings = ""): pg.PoolConfig {
  return {
    connectionTimeoutMillis: timeouts.connectMs,
    query_timeout: timeouts.statementMs + 5_000,
    options:
      `-c statement_timeout=${timeouts.statementMs} -c idle_in_transaction_session_timeout=30000 ${settings}`.trim(),
  };
}

/** A pool of node-postgres connections, as `spec` says; it ends with `pool.end()`. */
export function createPool(spec: PoolSpec): pg.Pool {
  // the app's settings are read only when needed: a tool's or a job's pool names everything (its process has no settings)
  let app: ReturnType<typeof appDatabase> | undefined;
  const ofApp = () => (app ??= appDatabase());
  const timeouts = spec.timeouts && {
    connectMs: spec.timeouts.connectMs ?? ofApp().connectMs,
    statementMs: spec.timeouts.statementMs ?? ofApp().statementMs,
  };
  const pool = new pg.Pool({
    connectionString: spec.url ?? ofApp().url,
    ...(spec.applicationName ? { application_name: spec.applicationName } : {}),
    max: spec.max,
    ...(timeouts ? poolTimeoutOptions(timeouts, spec.settings) : {}),
  });
  if (spec.logIdleFailures)
    pool.on("error", (error) =>
      log().warn(
        { event: `${spec.name}.pool.failed`, ...errorField(error) },
        `${spec.name}: idle database connection failed`,
      ),
    );
  if (spec.watched) watchPool(spec.name, pool);
  return pool;
}

/** One connection of its own (the live bus's LISTEN), to the app's database unless `url` names another. */
export function createConnection(spec: { applicationName: string; url?: string }): pg.Client {
  return new pg.Client({ connectionString: spec.url ?? appDatabase().url, application_name: spec.applicationName });
}
