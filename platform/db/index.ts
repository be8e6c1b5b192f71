import "server-only";
import { Prisma, type PrismaClient } from "@/platform/db/generated/prisma/client";
import type pg from "pg";
import { prismaClientOn } from "@/platform/db/client";
import { createPool } from "@/platform/db/pools";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient; prismaPool?: pg.Pool };

/** The connections of the app's Prisma client: ten to the app's database with its timeouts (platform/db/pools.ts). */
function appPool(): pg.Pool {
  globalForPrisma.prismaPool ??= createPool({ name: "prisma", max: 10, timeouts: {}, watched: true });
  return globalForPrisma.prismaPool;
}

/** The app's one Prisma client (reused across hot reloads in development), reported in the metrics as `prisma`. */
export function db(): PrismaClient {
  globalForPrisma.prisma ??= prismaClientOn(appPool());
  return globalForPrisma.prisma;
}

/**
 * The same connections as node-postgres, for a measured hot path where Prisma's own handling of a value holds the
 * event loop: a picture's bytes (ten times less of the loop per page than through Prisma, docs/benchmarks.md). No
 * statement named (a transaction pooler may be in front: platform/db/pools.ts isPooled).
 */
export function dbPool(): pg.Pool {
  db();
  return appPool();
}

/** True when a write failed on a unique index (Prisma's P2002): the index had the last word in a race. */
export const isUniqueViolation = (error: unknown): error is Prisma.PrismaClientKnownRequestError =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
