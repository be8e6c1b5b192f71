import { createPool, isPooled } from "@/platform/db/pools";
import type { EndpointOptions } from "@/platform/http/node-http";
import { errorField, log } from "@/platform/ops/log";
import { createPressBatcher } from "../shared/advance-batch";

/**
 * The production server's scene moves (features/play/server/advance-endpoint.ts): a pool of its own and the
 * batcher that shares one statement among the presses arriving together (features/play/shared/advance-batch.ts),
 * its connections prepared at the start. Framework-free: no Next.js, no Prisma.
 */
export function createAdvanceMoves(options: Pick<EndpointOptions, "databaseUrl" | "poolSize">) {
  // A move is not waited on for the disk: with synchronous_commit off the commit (and the
  // notification with it) returns before its WAL is flushed — a database crash in the next
  // fraction of a second could lose the move (the teacher presses again), never corrupt anything. Behind a
  // transaction pooler the setting is not sent (PoolSpec.pooled): the commit waits for the disk.
  const pool = createPool({
    name: "advance",
    url: options.databaseUrl,
    applicationName: "manabiya-advance",
    max: options.poolSize ?? 4,
    timeouts: { statementMs: 10_000 },
    settings: "-c synchronous_commit=off",
    watched: true,
    logIdleFailures: true,
  });
  const presses = createPressBatcher(pool, { named: !isPooled(pool) });
  const warming = presses
    .warm()
    .catch((error: unknown) =>
      log().warn({ event: "advance.warm.failed", ...errorField(error) }, "advance: could not prepare the connections"),
    );
  return {
    decide: presses.decide,
    async close() {
      await warming;
      await pool.end();
    },
  };
}
