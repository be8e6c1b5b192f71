/**
 * oneBatchAtATime (platform/db/batches.ts): a loader's batches run one at a time, and the loads asked while one runs
 * go together in the next; a failed batch does not stop the next.
 */
import DataLoader from "dataloader";
import { describe, expect, it } from "vitest";
import { oneBatchAtATime } from "@/platform/db/batches";

/** A loader whose every batch waits `ms` (a statement), recording the batches and how many ran at once. */
function slowLoader(ms: number, failFirst = false) {
  const batches: string[][] = [];
  let running = 0;
  let most = 0;
  const { batch, batchScheduleFn } = oneBatchAtATime<string, string>(async (keys) => {
    batches.push([...keys]);
    most = Math.max(most, ++running);
    await new Promise((r) => setTimeout(r, ms));
    running--;
    if (failFirst && batches.length === 1) throw new Error("the database is away");
    return keys.map((k) => k.toUpperCase());
  });
  const loader = new DataLoader(batch, { cache: false, batchScheduleFn });
  return { loader, batches, most: () => most };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("oneBatchAtATime", () => {
  it("loads asked while a batch runs wait for it and go together in the next; never two batches at once", async () => {
    const { loader, batches, most } = slowLoader(30);
    const first = loader.load("a");
    await tick();
    await tick();
    // asked one after another while the first batch runs (as fifty requests parsed one by one)
    const later: Promise<string>[] = [];
    for (const key of ["b", "c", "d", "e"]) {
      later.push(loader.load(key));
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(await first).toBe("A");
    expect(await Promise.all(later)).toEqual(["B", "C", "D", "E"]);
    expect(batches).toEqual([["a"], ["b", "c", "d", "e"]]);
    expect(most()).toBe(1);
  });

  it("a batch that fails fails its own loads only; the next runs", async () => {
    const { loader, batches } = slowLoader(10, true);
    const first = loader.load("a");
    await tick();
    await tick();
    const second = loader.load("b");
    await expect(first).rejects.toThrow("the database is away");
    expect(await second).toBe("B");
    expect(batches).toEqual([["a"], ["b"]]);
  });
});
