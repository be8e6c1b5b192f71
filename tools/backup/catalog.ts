import type pg from "pg";

/** What the backup and the restore read from PostgreSQL's catalog (never a hand list, so no new table is forgotten). */
export interface TableInfo {
  name: string;
  /** Stored columns in order (generated columns are computed again, not copied). */
  columns: string[];
}

export interface ForeignKey {
  name: string;
  table: string;
  references: string;
  deferrable: boolean;
  deferred: boolean;
}

/** Every ordinary table of the app's schema (current_schema(), `public`), the migrations table included. */
export async function listTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(`
    select c.relname as name,
           array_agg(a.attname::text order by a.attnum) as columns
      from pg_class c
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
     group by c.relname
     order by c.relname`);
  return rows;
}

export async function listForeignKeys(client: pg.ClientBase): Promise<ForeignKey[]> {
  const { rows } = await client.query<ForeignKey>(`
    select con.conname as name, src.relname as table, dst.relname as references,
           con.condeferrable as deferrable, con.condeferred as deferred
      from pg_constraint con
      join pg_class src on src.oid = con.conrelid
      join pg_class dst on dst.oid = con.confrelid
     where con.contype = 'f' and src.relnamespace = current_schema()::regnamespace
     order by 1, 2`);
  return rows;
}

/**
 * Tables in an order where each comes after the tables it references
 * (alphabetical among equals). A table referencing itself needs nothing (one
 * COPY is one statement; its checks run at the end). Tables in a cycle are
 * put in alphabetical order; the restore defers the keys that point forward.
 */
export function loadOrder(tables: string[], keys: Pick<ForeignKey, "table" | "references">[]): string[] {
  const pending = new Set(tables);
  const needs = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const k of keys)
    if (k.table !== k.references && pending.has(k.references)) needs.get(k.table)?.add(k.references);
  const order: string[] = [];
  while (pending.size > 0) {
    const ready = [...pending].filter((t) => [...needs.get(t)!].every((n) => !pending.has(n))).sort();
    const next = ready.length > 0 ? ready : [...pending].sort().slice(0, 1); // a cycle: break it
    for (const t of next) {
      order.push(t);
      pending.delete(t);
    }
  }
  return order;
}

/** The keys a load in `order` would break if checked row by row: those whose referenced table comes later. */
export function keysToDefer<K extends Pick<ForeignKey, "table" | "references">>(order: string[], keys: K[]): K[] {
  const at = new Map(order.map((t, i) => [t, i]));
  return keys.filter((k) => k.table !== k.references && (at.get(k.references) ?? -1) > (at.get(k.table) ?? -1));
}

/** Sets every sequence owned by a column (serial, identity) past the column's largest value. */
export async function resetSequences(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ seq: string; tbl: string; col: string }>(`
    select s.oid::regclass::text as seq, t.oid::regclass::text as tbl, quote_ident(a.attname) as col
      from pg_class s
      join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.deptype in ('a', 'i')
      join pg_class t on t.oid = d.refobjid
      join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
     where s.relkind = 'S' and t.relnamespace = current_schema()::regnamespace`);
  for (const r of rows) {
    await client.query(
      `select setval($1::regclass, coalesce((select max(${r.col}) from ${r.tbl}), 1), (select max(${r.col}) from ${r.tbl}) is not null)`,
      [r.seq],
    );
  }
}
