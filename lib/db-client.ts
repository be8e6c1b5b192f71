import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { type PoolTimeouts, poolTimeoutOptions } from "@/lib/db-timeouts";
import { PrismaClient } from "@/lib/generated/prisma/client";

/**
 * A Prisma client over node-postgres. Used by the app (lib/db.ts, with timeouts), the seed and tests.
 * `onPool` receives the client's pool (the app reports its usage in the metrics, lib/ops/metrics.ts);
 * the pool ends with the client ($disconnect).
 */
export function createPrismaClient(
  connectionString: string,
  max = 10,
  timeouts?: PoolTimeouts,
  onPool?: (pool: pg.Pool) => void,
): PrismaClient {
  const pool = new pg.Pool({ connectionString, max, ...(timeouts ? poolTimeoutOptions(timeouts) : {}) });
  onPool?.(pool);
  return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
}
