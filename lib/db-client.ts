import { PrismaPg } from "@prisma/adapter-pg";
import { type PoolTimeouts, poolTimeoutOptions } from "@/lib/db-timeouts";
import { PrismaClient } from "@/lib/generated/prisma/client";

/** A Prisma client over node-postgres. Used by the app (lib/db.ts, with timeouts), the seed and tests. */
export function createPrismaClient(connectionString: string, max = 10, timeouts?: PoolTimeouts): PrismaClient {
  const adapter = new PrismaPg({ connectionString, max, ...(timeouts ? poolTimeoutOptions(timeouts) : {}) });
  return new PrismaClient({ adapter });
}
