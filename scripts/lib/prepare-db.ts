import path from "node:path";
import { ensureDatabase, ensureEmbeddedPostgres, recreateDatabase, type RunningPg } from "./embedded-pg";
import { localSecrets } from "./local-secrets";
import { PG_PORTS } from "./ports";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface PreparedDb {
  databaseUrl: string;
  /**
   * The direct connection for session-bound work (the migrations' lock, backup and restore, a reset):
   * DATABASE_DIRECT_URL when DATABASE_URL is a transaction pooler, else DATABASE_URL (docs/scaling.md).
   */
  directUrl: string;
  embedded: RunningPg | null;
  seedDemo: boolean;
}

/**
 * DATABASE_URL (and DATABASE_DIRECT_URL) when set; otherwise the embedded PostgreSQL in .data/ (its
 * folder, port and database name can be changed for tests with
 * MANABIYA_PG_DIR, EMBEDDED_PG_PORT, MANABIYA_DB_NAME; MANABIYA_FRESH_DB=1
 * starts from an empty database). Fills in local secrets and AUTH_URL outside production.
 */
export async function prepareDatabase(): Promise<PreparedDb> {
  if (process.env.NODE_ENV !== "production") {
    const secrets = localSecrets(ROOT);
    process.env.AUTH_SECRET ||= secrets.AUTH_SECRET;
    process.env.SIGNIN_CODE_KEY ||= secrets.SIGNIN_CODE_KEY;
    // this machine's own address for links (production requires AUTH_URL to be set)
    process.env.AUTH_URL ||= `http://localhost:${process.env.PORT ?? 3000}`;
  }
  const seedFlag = process.env.SEED_DEMO === "1" || process.env.SEED_DEMO === "true";
  if (process.env.DATABASE_URL) {
    const databaseUrl = process.env.DATABASE_URL;
    return {
      databaseUrl,
      directUrl: process.env.DATABASE_DIRECT_URL || databaseUrl,
      embedded: null,
      seedDemo: seedFlag,
    };
  }

  const embedded = await ensureEmbeddedPostgres({
    dir: process.env.MANABIYA_PG_DIR ?? path.join(ROOT, ".data", "pg"),
    port: Number(process.env.EMBEDDED_PG_PORT ?? PG_PORTS.dev),
    portEnv: "EMBEDDED_PG_PORT",
    verbose: process.env.MANABIYA_PG_VERBOSE === "1",
  });
  const name = process.env.MANABIYA_DB_NAME ?? "manabiya";
  if (process.env.MANABIYA_FRESH_DB === "1") await recreateDatabase(embedded.adminUrl, name);
  else await ensureDatabase(embedded.adminUrl, name);
  const databaseUrl = embedded.urlFor(name);
  process.env.DATABASE_URL = databaseUrl;
  return { databaseUrl, directUrl: databaseUrl, embedded, seedDemo: true };
}
