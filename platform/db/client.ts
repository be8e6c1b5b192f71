import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { createPool, type PoolSpec } from "@/platform/db/pools";
import type { PoolTimeouts } from "@/platform/db/settings";
import { PrismaClient } from "@/platform/db/generated/prisma/client";

/** A Prisma client over `pool` (one of createPool's, platform/db/pools.ts); the pool ends with the client ($disconnect). */
export function prismaClientOn(pool: pg.Pool): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
}

/** A Prisma client over a pool of createPool's made as `spec` says. */
export const prismaClientOver = (spec: PoolSpec): PrismaClient => prismaClientOn(createPool(spec));

/**
 * A Prisma client of its own to `connectionString`, with `max` connections: the seed, the command-line
 * tools, tests and the sign-in sheets' renderer process (which passes its job's timeouts; the others
 * wait without limits; `pooled`: `connectionString` is a transaction pooler, PoolSpec). The app's own client is
 * platform/db/index.ts's.
 */
export function createPrismaClient(
  connectionString: string,
  max = 10,
  timeouts?: PoolTimeouts,
  pooled = false,
): PrismaClient {
  return prismaClientOver({ name: "tool", url: connectionString, max, timeouts: timeouts ?? null, pooled });
}
