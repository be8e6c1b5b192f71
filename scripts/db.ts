/**
 * `npm run db:migrate | db:deploy | db:seed | db:reset` against DATABASE_URL, or the
 * embedded PostgreSQL when it is not set (started for the command, stopped after).
 */
import { openClient } from "@/platform/db/connect";
import { runSeed } from "../prisma/seed/run";
import { migrate } from "./lib/migrate";
import { prepareDatabase } from "./lib/prepare-db";

const command = process.argv[2];
if (!["migrate", "seed", "reset"].includes(command ?? "")) {
  console.error("usage: tsx scripts/db.ts migrate|seed|reset");
  process.exit(2);
}

const db = await prepareDatabase();
try {
  if (command === "reset") {
    const client = await openClient(db.directUrl);
    await client.query("drop schema public cascade; create schema public;");
    await client.end();
    console.log("database emptied");
  }
  if (command === "migrate" || command === "reset") {
    const result = await migrate(db.directUrl);
    console.log(`${result.applied.length} migration(s) applied, ${result.alreadyApplied} already in place`);
  }
  if (command === "seed" || command === "reset") await runSeed({ demo: db.seedDemo, databaseUrl: db.databaseUrl });
} finally {
  if (db.embedded?.startedHere) await db.embedded.stop();
}
