import pg from "pg";
import { expect } from "vitest";
import { testDatabaseUrl } from "./helpers";

/**
 * How many statements a piece of code sends, counted on the real database: while `table` is locked (ACCESS
 * EXCLUSIVE, by a connection of the test's own) every statement reading it waits, so the statements `run` starts
 * stay in pg_stat_activity to be counted by what they begin with (`marker`: a comment at the statement's start,
 * within what PostgreSQL keeps of its text). `run` gets `waiting(marker)`; the lock is released when it returns.
 */
export async function withTableLocked<T>(
  table: string,
  run: (waiting: (marker: string) => Promise<number>) => Promise<T>,
): Promise<T> {
  const locker = new pg.Client({ connectionString: testDatabaseUrl() });
  // the counts from another connection: inside the locker's transaction pg_stat_activity would stay as first read
  const watcher = new pg.Client({ connectionString: testDatabaseUrl() });
  await Promise.all([locker.connect(), watcher.connect()]);
  const waiting = async (marker: string) =>
    (
      await watcher.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and position($1 in query) > 0`,
        [marker],
      )
    ).rows[0]!.n;
  try {
    await locker.query("begin");
    await locker.query(`lock table ${table} in access exclusive mode`);
    return await run(waiting);
  } finally {
    await locker.query("commit").catch(() => undefined);
    await Promise.all([locker.end(), watcher.end()]);
  }
}

/**
 * The statements marked `marker` that came, once the first has: after it, `settleMs` for any other (the reads a
 * batch would have shared arrive within the same turn of the event loop, the ones one by one right after).
 */
export async function statementsCame(waiting: (marker: string) => Promise<number>, marker: string, settleMs = 1_000) {
  await expect.poll(() => waiting(marker), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  await new Promise((r) => setTimeout(r, settleMs));
  return waiting(marker);
}

/**
 * Runs `start` while a transaction of the test's own holds what `lockSql` locks (a row it updates, a table it locks),
 * waits until a statement waits for a lock (and for `arrived`, when given), then commits and returns what `start` gave:
 * the code under test meets the lock and goes on after the holder's commit.
 */
export async function whileLockHeld<T>(
  lockSql: string,
  params: unknown[],
  start: () => Promise<T>,
  arrived?: () => Promise<void>,
): Promise<T> {
  const locker = new pg.Client({ connectionString: testDatabaseUrl() });
  const watcher = new pg.Client({ connectionString: testDatabaseUrl() });
  await Promise.all([locker.connect(), watcher.connect()]);
  const lockWaits = async () =>
    (
      await watcher.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      )
    ).rows[0]!.n;
  try {
    await locker.query("begin");
    await locker.query(lockSql, params);
    const started = start();
    await arrived?.();
    await expect.poll(lockWaits, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await locker.query("commit");
    return await started;
  } finally {
    await locker.query("rollback").catch(() => undefined);
    await Promise.all([locker.end(), watcher.end()]);
  }
}
