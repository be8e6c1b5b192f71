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
 * over createPool. Behind a transaction pooler (DATABASE_DIRECT_URL set) the pools keep nothing in the server
 * session and the LISTEN connection goes straight to the database (docs/scaling.md "What runs where").
 */

/**
 * What a pool serves: its name in the metrics (README.md "Metrics") and in the log line of a failed idle
 * connection. `tool`: a Prisma client of its own (the seed, the command-line tools, tests, the sign-in
 * sheets' renderer process).
 */
export type PoolName = "prisma" | "answers" | "advance" | "streams" | "queue" | "tool";

/** What one pool differs in from the others. */
export interface PoolSpec {
  name: PoolName;
  max: number;
  /** another database than the app's (DATABASE_URL): a tool's, a test's, a job's */
  url?: string;
  /**
   * `url` is a transaction pooler (for the app's database: DATABASE_DIRECT_URL is set, appDatabase): no setting
   * is sent at connection start (`settings` and the statement timeout are left out: the client's own timeouts
   * stay), and the pool's users name no statement (isPooled).
   */
  pooled?: boolean;
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
function poolTimeoutOptions(timeouts: PoolTimeouts, settings = ""): pg.PoolConfig & { options?: string } {
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
  const pooled = spec.pooled ?? (spec.url === undefined && ofApp().pooled);
  const options = timeouts ? poolTimeoutOptions(timeouts, spec.settings) : {};
  // behind a transaction pooler the server session is not ours: nothing set at its start
  if (pooled) delete options.options;
  const pool = new pg.Pool({
    connectionString: spec.url ?? ofApp().url,
    ...(spec.applicationName ? { application_name: spec.applicationName } : {}),
    max: spec.max,
    ...options,
  });
  if (pooled) pooledPools.add(pool);
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

const pooledPools = new WeakSet<pg.Pool>();

/**
 * The pool's connections go through a transaction pooler (PoolSpec.pooled): each transaction may run in
 * another server session, so a statement is not named (a named one is prepared in one session and missing,
 * or already there, in the next). Otherwise a hot path names its statements: PostgreSQL plans each once per
 * connection (docs/scaling.md "What runs where").
 */
export function isPooled(pool: pg.Pool): boolean {
  return pooledPools.has(pool);
}

/**
 * One connection of its own (the live bus's LISTEN), to the app's database's direct address
 * (DATABASE_DIRECT_URL, else DATABASE_URL) unless `url` names another. TCP keepalive finds a connection
 * that vanished without a word (a network blip, a failover) so that it is opened again.
 */
export function createConnection(spec: { applicationName: string; url?: string }): pg.Client {
  return new pg.Client({
    connectionString: spec.url ?? appDatabase().directUrl,
    application_name: spec.applicationName,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
}
