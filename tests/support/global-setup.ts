import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureEmbeddedPostgres, recreateDatabase, type RunningPg } from "../../scripts/lib/embedded-pg";
import { migrate } from "../../scripts/lib/migrate";
import { PG_PORTS } from "../../scripts/lib/ports";
import { type RunningPgBouncer, startPgBouncer } from "./pgbouncer";

/**
 * Starts the test cluster (embedded PostgreSQL in .data/pg-test), makes a
 * throw-away database migrated fresh, and hands its URL to the tests.
 */
let pg: RunningPg | undefined;
let pooler: RunningPgBouncer | undefined;

export async function setup(project: TestProject) {
  pg = await ensureEmbeddedPostgres({
    dir: path.resolve(import.meta.dirname, "../../.data/pg-test"),
    port: Number(process.env.TEST_PG_PORT ?? PG_PORTS.integration),
    portEnv: "TEST_PG_PORT",
  });
  const name = `manabiya_it_${process.pid}`;
  await recreateDatabase(pg.adminUrl, name);
  await migrate(pg.urlFor(name));
  project.provide("databaseUrl", pg.urlFor(name));
  project.provide("adminUrl", pg.adminUrl);
  project.provide("clusterBase", pg.urlFor(""));
  // PgBouncer in transaction mode in front of the cluster (tests/support/pgbouncer.ts), on TEST_PG_PORT + 7: the
  // tests through it fail with what to install when it is missing (tests/support/pooler.ts)
  try {
    pooler = await startPgBouncer(pg.adminUrl, Number(new URL(pg.adminUrl).port) + 7);
    project.provide("poolerPort", pooler.port);
  } catch (error) {
    project.provide("poolerPort", 0);
    project.provide("poolerProblem", (error as Error).message);
  }
  return async () => {
    await pooler?.stop();
    const { default: pgLib } = await import("pg");
    const client = new pgLib.Client({ connectionString: pg!.adminUrl });
    await client.connect();
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.end();
    if (pg?.startedHere) await pg.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    adminUrl: string;
    clusterBase: string;
    /** PgBouncer's port (transaction mode, in front of the cluster); 0 when it could not start (poolerProblem says why) */
    poolerPort: number;
    poolerProblem?: string;
  }
}
