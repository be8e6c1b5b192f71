import { defineConfig } from "prisma/config";

// The Prisma CLI is used here only for `prisma generate`; migrations are applied
// by scripts/lib/migrate.ts (see docs/database.md).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/manabiya" },
});
