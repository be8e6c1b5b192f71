import { describe, expect, it } from "vitest";
import { Prisma } from "@/platform/db/generated/prisma/client";
import { listMigrations, migrate } from "../lib/migrate";
import { findDrift, parsePrismaSchema } from "../lib/schema-drift";
import { dropDatabase, emptyDatabase, testDatabaseUrl } from "../../tests/support/helpers";

describe("migrations and schema.prisma", () => {
  it("apply to an empty database and record themselves as Prisma Migrate does", async () => {
    const db = await emptyDatabase("mig");
    try {
      const first = await migrate(db.url);
      const all = await listMigrations();
      expect(first.applied).toEqual(all.map((m) => m.name));
      const again = await migrate(db.url);
      expect(again.applied).toEqual([]);
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const rows = await client.query(
        `select migration_name, checksum, finished_at from "_prisma_migrations" order by migration_name`,
      );
      await client.end();
      expect(rows.rows.map((r) => [r.migration_name, r.checksum])).toEqual(all.map((m) => [m.name, m.checksum]));
      expect(rows.rows.every((r) => r.finished_at instanceof Date)).toBe(true);
    } finally {
      await dropDatabase(db.name);
    }
  });

  it("the migrated database matches schema.prisma exactly", async () => {
    expect(await findDrift(testDatabaseUrl())).toEqual([]);
  });

  it("the generated client knows every model and field of schema.prisma", () => {
    const schema = parsePrismaSchema();
    expect(Object.keys(Prisma.ModelName).sort()).toEqual(schema.models.map((m) => m.name).sort());
    for (const model of schema.models) {
      const enumName = `${model.name}ScalarFieldEnum` as keyof typeof Prisma;
      const generated = Object.keys(Prisma[enumName] as Record<string, string>).sort();
      expect(generated, model.name).toEqual(model.fields.map((f) => f.name).sort());
    }
  });

  it("catches a column removed from the SQL, a changed nullability and an unknown table", async () => {
    const db = await emptyDatabase("drift");
    try {
      const migrations = await listMigrations();
      const broken = migrations.map((m) => ({
        ...m,
        sql: m.sql
          .replace(/\s*"nickname" TEXT,\n/, "\n")
          .replace(`"title" TEXT NOT NULL,\n    "description"`, `"title" TEXT,\n    "description"`),
      }));
      expect(broken[0]!.sql).not.toEqual(migrations[0]!.sql);
      await migrate(db.url, broken);
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query(`create table "stray" (id int)`);
      await client.end();
      const drift = await findDrift(db.url);
      expect(drift).toContain("column users.nickname (User.nickname) is missing from the database");
      expect(drift).toContain(
        "column activity_templates.title (ActivityTemplate.title) is nullable in the database, the schema says required",
      );
      expect(drift).toContain("table stray is in the database but not in the schema");
    } finally {
      await dropDatabase(db.name);
    }
  });
});
