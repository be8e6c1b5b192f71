import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { READ_FILES } from "@/features/rostering/shared/oneroster-columns";
import { fieldsOfRow, rowOfFields } from "@/features/rostering/shared/oneroster-record";
import { rosterSet } from "../../../tests/support/oneroster-arbitrary";

/** The record of received rows keeps every field the reader keeps, by column name, and gives the same row back. */
describe("OneRoster row record", () => {
  it("a row's fields by column name give the same row back, for every file of generated sets", () => {
    fc.assert(
      fc.property(rosterSet, (set) => {
        for (const file of READ_FILES) {
          for (const row of set[file]) {
            const fields = fieldsOfRow(file, row);
            expect(JSON.parse(JSON.stringify(fields))).toEqual(fields); // what jsonb stores
            expect(rowOfFields(file, row, fields, row.line)).toEqual(row);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("names the fields by their OneRoster column", () => {
    fc.assert(
      fc.property(rosterSet, (set) => {
        const e = set.enrollments.find((x) => x.shussekiNo !== null);
        if (e) expect(fieldsOfRow("enrollments", e)["metadata.jp.ShussekiNo"]).toBe(e.shussekiNo);
        const u = set.users.find((x) => x.homeClass !== null)!;
        expect(fieldsOfRow("users", u)["metadata.jp.homeClass"]).toBe(u.homeClass);
      }),
      { numRuns: 20 },
    );
  });
});
