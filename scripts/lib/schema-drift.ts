import { readFileSync } from "node:fs";
import path from "node:path";
import { openClient } from "@/platform/db/connect";

/**
 * Compares prisma/schema.prisma with a migrated database: every model's table,
 * every scalar field's column (type and nullability), every enum's values, and
 * no table or column in the database that the schema does not know.
 * (Prisma's own `migrate diff` needs an engine we cannot download here.)
 */
export interface SchemaField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
  list: boolean;
  native: string | null;
}
export interface SchemaModel {
  name: string;
  table: string;
  fields: SchemaField[];
}
export interface ParsedSchema {
  models: SchemaModel[];
  enums: Map<string, string[]>;
}

export const SCHEMA_PATH = path.resolve(import.meta.dirname, "../../prisma/schema.prisma");

export function parsePrismaSchema(source = readFileSync(SCHEMA_PATH, "utf8")): ParsedSchema {
  const text = source.replace(/\/\/.*$/gm, "");
  const enums = new Map<string, string[]>();
  for (const m of text.matchAll(/enum\s+(\w+)\s*\{([^}]*)\}/g)) {
    enums.set(
      m[1]!,
      m[2]!.split(/\s+/).filter((v) => v && !v.startsWith("@")),
    );
  }
  const blocks = [...text.matchAll(/model\s+(\w+)\s*\{([^}]*)\}/g)];
  const modelNames = new Set(blocks.map((b) => b[1]!));
  const models = blocks.map(([, name, body]) => {
    const table = /@@map\("([^"]+)"\)/.exec(body!)?.[1] ?? name!;
    const fields: SchemaField[] = [];
    for (const line of body!.split("\n").map((l) => l.trim())) {
      const f = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!f || line.startsWith("@@")) continue;
      const [, fieldName, type, list, optional, attrs] = f;
      if (modelNames.has(type!)) continue; // relation field
      fields.push({
        name: fieldName!,
        column: /@map\("([^"]+)"\)/.exec(attrs!)?.[1] ?? fieldName!,
        type: type!,
        optional: Boolean(optional),
        list: Boolean(list),
        native: /@db\.(\w+)/.exec(attrs!)?.[1] ?? null,
      });
    }
    return { name: name!, table, fields };
  });
  return { models, enums };
}

const SCALAR_UDT: Record<string, string> = {
  Int: "int4",
  BigInt: "int8",
  Boolean: "bool",
  Json: "jsonb",
  Float: "float8",
  Decimal: "numeric",
  Bytes: "bytea",
};

export function expectedUdt(field: SchemaField, enums: Map<string, string[]>): string {
  let base: string;
  if (enums.has(field.type)) base = field.type;
  else if (field.type === "String") base = field.native === "Uuid" ? "uuid" : "text";
  else if (field.type === "DateTime") base = field.native === "Timestamptz" ? "timestamptz" : "timestamp";
  else base = SCALAR_UDT[field.type] ?? `?${field.type}`;
  return field.list ? `_${base}` : base;
}

export async function findDrift(databaseUrl: string, schema = parsePrismaSchema()): Promise<string[]> {
  const client = await openClient(databaseUrl);
  try {
    const cols = await client.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string }>(
      `select table_name, column_name, udt_name, is_nullable from information_schema.columns
       where table_schema = 'public' and table_name <> '_prisma_migrations'`,
    );
    const enumRows = await client.query<{ name: string; value: string }>(
      `select t.typname as name, e.enumlabel as value from pg_type t join pg_enum e on e.enumtypid = t.oid
       join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'public' order by t.typname, e.enumsortorder`,
    );
    const problems: string[] = [];
    const db = new Map<string, Map<string, { udt: string; nullable: boolean }>>();
    for (const c of cols.rows) {
      if (!db.has(c.table_name)) db.set(c.table_name, new Map());
      db.get(c.table_name)!.set(c.column_name, { udt: c.udt_name, nullable: c.is_nullable === "YES" });
    }
    for (const model of schema.models) {
      const table = db.get(model.table);
      if (!table) {
        problems.push(`table ${model.table} (model ${model.name}) is missing from the database`);
        continue;
      }
      for (const field of model.fields) {
        const col = table.get(field.column);
        const where = `${model.table}.${field.column} (${model.name}.${field.name})`;
        if (!col) {
          problems.push(`column ${where} is missing from the database`);
          continue;
        }
        const udt = expectedUdt(field, schema.enums);
        if (col.udt !== udt) problems.push(`column ${where} has type ${col.udt}, the schema says ${udt}`);
        if (!field.list && col.nullable !== field.optional) {
          problems.push(
            `column ${where} is ${col.nullable ? "nullable" : "NOT NULL"} in the database, the schema says ${field.optional ? "optional" : "required"}`,
          );
        }
      }
      const known = new Set(model.fields.map((f) => f.column));
      for (const column of table.keys()) {
        if (!known.has(column))
          problems.push(`column ${model.table}.${column} is in the database but not in the schema`);
      }
    }
    const tables = new Set(schema.models.map((m) => m.table));
    for (const table of db.keys())
      if (!tables.has(table)) problems.push(`table ${table} is in the database but not in the schema`);
    const dbEnums = new Map<string, string[]>();
    for (const r of enumRows.rows) dbEnums.set(r.name, [...(dbEnums.get(r.name) ?? []), r.value]);
    for (const [name, values] of schema.enums) {
      const actual = dbEnums.get(name);
      if (!actual) problems.push(`enum ${name} is missing from the database`);
      else if (actual.join(",") !== values.join(","))
        problems.push(`enum ${name} is [${actual}] in the database, the schema says [${values}]`);
    }
    for (const name of dbEnums.keys())
      if (!schema.enums.has(name)) problems.push(`enum ${name} is in the database but not in the schema`);
    return problems;
  } finally {
    await client.end();
  }
}
