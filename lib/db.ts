import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createPrismaClient } from "@/lib/db-client";
import { env } from "@/lib/env";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

/** The app's one Prisma client (reused across hot reloads in development). */
export function db(): PrismaClient {
  globalForPrisma.prisma ??= createPrismaClient(env().DATABASE_URL);
  return globalForPrisma.prisma;
}
