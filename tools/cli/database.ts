/**
 * The database of a command-line tool (npm run admin, npm run roster): DATABASE_URL, or on a
 * developer machine the same embedded PostgreSQL `npm start` uses (scripts/lib/prepare-db.ts),
 * migrated first like `npm start` unless told not to. Never the embedded one in production. `run` gets the
 * direct connection's address (DATABASE_DIRECT_URL when DATABASE_URL is a transaction pooler): backup and
 * restore are session-bound; the rest goes through the app's client (DATABASE_URL).
 */
import { db } from "@/platform/db";
import { migrate } from "../../scripts/lib/migrate";
import { prepareDatabase } from "../../scripts/lib/prepare-db";

export async function withCliDatabase<T>(
  run: (directUrl: string) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  if (process.env.NODE_ENV === "production" && !process.env.DATABASE_URL) {
    throw new Error("DATABASE_URL is required in production (the command line never starts the embedded database)");
  }
  const prepared = await prepareDatabase();
  try {
    if (options.migrate !== false) await migrate(prepared.directUrl);
    return await run(prepared.directUrl);
  } finally {
    await db().$disconnect();
    if (prepared.embedded?.startedHere) await prepared.embedded.stop();
  }
}
