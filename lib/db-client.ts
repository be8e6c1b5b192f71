import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";

/** A Prisma client over node-postgres. Used by the app (lib/db.ts), the seed and tests. */
export function createPrismaClient(connectionString: string, max = 10): PrismaClient {
  const adapter = new PrismaPg({ connectionString, max });
  return new PrismaClient({ adapter });
}
