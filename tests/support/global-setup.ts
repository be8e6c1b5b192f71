import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureEmbeddedPostgres, recreateDatabase, type RunningPg } from "../../scripts/lib/embedded-pg";
import { migrate } from "../../scripts/lib/migrate";
import { PG_PORTS } from "../../scripts/lib/ports";

/**
 * Starts the test cluster (embedded PostgreSQL in .data/pg-test), makes a
 * throw-away database migrated fresh, and hands its URL to the tests.
 */
let pg: RunningPg | undefined;

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
  return async () => {
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
  }
}
