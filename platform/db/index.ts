import "server-only";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { prismaClientOver } from "@/platform/db/client";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

/**
 * The app's one Prisma client (reused across hot reloads in development): ten connections to the app's
 * database with its timeouts (platform/db/pools.ts), reported in the metrics as `prisma`.
 */
export function db(): PrismaClient {
  globalForPrisma.prisma ??= prismaClientOver({ name: "prisma", max: 10, timeouts: {}, watched: true });
  return globalForPrisma.prisma;
}
