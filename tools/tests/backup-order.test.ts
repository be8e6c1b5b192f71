import { describe, expect, it } from "vitest";
import { keysToDefer, loadOrder } from "../backup/catalog";

/** The order a backup writes tables in, and the keys a restore defers (tools/backup/catalog.ts). */
describe("backup table order", () => {
  it("puts every table after the tables it references, alphabetical among equals", () => {
    const keys = [
      { table: "responses", references: "users" },
      { table: "responses", references: "activities" },
      { table: "users", references: "schools" },
      { table: "activities", references: "schools" },
      { table: "schools", references: "academies" },
    ];
    const order = loadOrder(["responses", "users", "schools", "activities", "academies", "_prisma_migrations"], keys);
    expect(order).toEqual(["_prisma_migrations", "academies", "schools", "activities", "users", "responses"]);
    expect(keysToDefer(order, keys)).toEqual([]);
  });

  it("needs nothing for a table that references itself, and defers only the forward keys of a cycle", () => {
    const keys = [
      { table: "people", references: "people" },
      { table: "a", references: "b" },
      { table: "b", references: "a" },
      { table: "c", references: "a" },
    ];
    const order = loadOrder(["c", "b", "a", "people"], keys);
    expect(order).toEqual(["people", "a", "b", "c"]); // people is ready at once; the a–b cycle is broken alphabetically
    expect(keysToDefer(order, keys)).toEqual([{ table: "a", references: "b" }]);
  });
});
