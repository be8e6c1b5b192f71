import "server-only";
import { db } from "@/platform/db";

/** Names of the migrations recorded as finished in the database (the table the migration runner keeps). */
export async function appliedMigrationNames(): Promise<Set<string>> {
  const rows = await db().$queryRaw<{ migration_name: string }[]>`
    select migration_name from "_prisma_migrations" where rolled_back_at is null and finished_at is not null`;
  return new Set(rows.map((r) => r.migration_name));
}
