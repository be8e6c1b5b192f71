import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { createPrismaClient } from "@/platform/db/client";
import { openClient } from "@/platform/db/connect";
import { migrate } from "../../scripts/lib/migrate";
import { dropDatabase, emptyDatabase, testDatabaseUrl } from "../../tests/support/helpers";

/**
 * A database password with characters a URL reserves (@ # : / % ? & and a
 * space) works when it is given as PGPASSWORD beside a DATABASE_URL without a
 * password — how docker-compose.yml passes it, so an IT office never has to
 * URL-encode it. Every connection of the app reads it: the migration runner,
 * Prisma (the app, the seed) and node-postgres (the answer endpoint, live
 * notifications).
 */
const PASSWORD = "p@ss#w:rd/%?&= x";
const ROLE = `special_${Date.now().toString(36)}`;
let dbName = "";

afterAll(async () => {
  delete process.env.PGPASSWORD;
  if (dbName) await dropDatabase(dbName);
  const admin = await openClient(testDatabaseUrl());
  await admin.query(`drop role if exists ${ROLE}`);
  await admin.end();
});

it("a password full of URL characters, given as PGPASSWORD, opens every kind of connection the app makes", async () => {
  const { name, url } = await emptyDatabase("pgpass");
  dbName = name;
  const admin = await openClient(url);
  await admin.query(`create role ${ROLE} login password '${PASSWORD.replace(/'/g, "''")}'`);
  await admin.query(`alter database "${name}" owner to ${ROLE}`);
  await admin.query(`alter schema public owner to ${ROLE}`);
  await admin.end();

  const parsed = new URL(url);
  const withoutPassword = `postgresql://${ROLE}@${parsed.host}/${name}`;
  // without it, the server refuses: the test proves the variable is what lets them in
  await expect(migrate(withoutPassword)).rejects.toThrow();
  // and the refused client closed its half-open connection: left open, the server waits a minute for the password
  // (authentication_timeout), holding a connection slot and any DROP DATABASE of this database
  await expect.poll(() => connectionsAwaitingPassword(), { timeout: 10_000 }).toBe(0);

  process.env.PGPASSWORD = PASSWORD;
  await migrate(withoutPassword);
  const prisma = createPrismaClient(withoutPassword, 1);
  try {
    expect(await prisma.$queryRaw<{ me: string }[]>`select current_user as me`).toEqual([{ me: ROLE }]);
  } finally {
    await prisma.$disconnect();
  }
  const pool = new pg.Pool({ connectionString: withoutPassword, max: 1 });
  expect(
    (await pool.query<{ n: number }>("select count(*)::int as n from _prisma_migrations")).rows[0]!.n,
  ).toBeGreaterThan(0);
  await pool.end();
});

/** Client connections the server has accepted that have not yet signed in (waiting for the client's password). */
async function connectionsAwaitingPassword(): Promise<number> {
  const admin = await openClient(testDatabaseUrl());
  try {
    const { rows } = await admin.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where backend_type = 'client backend' and usename is null`,
    );
    return rows[0]!.n;
  } finally {
    await admin.end();
  }
}
