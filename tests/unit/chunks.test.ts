import { describe, expect, it } from "vitest";
import { mapInChunks } from "@/lib/chunks";

describe("mapInChunks", () => {
  it("lets the event loop run between chunks (a live class's write waiting behind a print goes first), and keeps every item in order", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const seen: string[] = [];
    // what another request queued while the print works: it must run before the print's last chunk, not after it
    setImmediate(() => seen.push("other request"));
    const out = await mapInChunks(items, 200, (chunk) => {
      seen.push(`chunk ${chunk[0]}`);
      return chunk.map((x) => x * 2);
    });
    expect(out).toEqual(items.map((x) => x * 2));
    expect(seen.indexOf("other request")).toBeGreaterThan(0);
    expect(seen.indexOf("other request")).toBeLessThan(seen.indexOf("chunk 800"));
    expect(seen.filter((s) => s.startsWith("chunk"))).toHaveLength(5);
  });

  it("nothing in, nothing out (no call)", async () => {
    let calls = 0;
    expect(await mapInChunks([], 200, () => (calls++, []))).toEqual([]);
    expect(calls).toBe(0);
  });
});
