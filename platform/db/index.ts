import "server-only";
import { Prisma, type PrismaClient } from "@/platform/db/generated/prisma/client";
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

/** True when a write failed on a unique index (Prisma's P2002): the index had the last word in a race. */
export const isUniqueViolation = (error: unknown): error is Prisma.PrismaClientKnownRequestError =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
