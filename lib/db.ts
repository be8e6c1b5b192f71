import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createPrismaClient } from "@/lib/db-client";
import { env } from "@/lib/env";
import { watchPool } from "@/lib/ops/metrics";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

/** The app's one Prisma client (reused across hot reloads in development). */
export function db(): PrismaClient {
  const { DATABASE_URL, DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS } = env();
  globalForPrisma.prisma ??= createPrismaClient(
    DATABASE_URL,
    10,
    { connectMs: DB_CONNECT_TIMEOUT_MS, statementMs: DB_STATEMENT_TIMEOUT_MS },
    (pool) => watchPool("prisma", pool),
  );
  return globalForPrisma.prisma;
}
