/**
 * A row as the academy's record of received rows keeps it (features/rostering, docs/oneroster.md "The sourcedId
 * record"): its fields keyed by the OneRoster column names of the row-1 profile, typed as read (lists as
 * arrays, booleans, integers), empty fields left out; and the row back from them. Pure.
 */
import { FILE_COLUMNS, type ReadFile } from "./oneroster-columns";
import type { Value } from "./oneroster-fields";
import type { RosterSet, RowMeta } from "./oneroster-model";
import { buildRow } from "./oneroster-rows";

export type RowFields = Record<string, Value>;
type RowOf<F extends ReadFile> = RosterSet[F][number];

const META = new Set(["sourcedId", "status", "dateLastModified"]);

/** The row property a column is read into: `metadata.jp.ShussekiNo` → `shussekiNo`, `metadata.jp.homeClass` → `homeClass`. */
function propertyOf(column: string): string {
  const name = column.replace(/^metadata\.jp\./, "");
  return name[0]!.toLowerCase() + name.slice(1);
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/** The fields of a row by column name (status, dateLastModified and the columns the reader does not keep aside). */
export function fieldsOfRow<F extends ReadFile>(file: F, row: RowOf<F>): RowFields {
  const out: RowFields = {};
  const values = row as unknown as Record<string, Value | undefined>;
  for (const col of FILE_COLUMNS[file][0]) {
    if (META.has(col.name) || col.kind === "ignored") continue;
    const value = values[propertyOf(col.name)];
    if (!isEmpty(value)) out[col.name] = value!;
  }
  return out;
}

/** The row a record holds, as the reader would have built it. */
export function rowOfFields<F extends ReadFile>(
  file: F,
  meta: Omit<RowMeta, "line">,
  fields: RowFields,
  line: number,
): RowOf<F> {
  const get = (name: string): Value =>
    name === "sourcedId"
      ? meta.sourcedId
      : name === "status"
        ? meta.status
        : name === "dateLastModified"
          ? meta.dateLastModified
          : (fields[name] ?? null);
  return buildRow(file, get, line);
}
