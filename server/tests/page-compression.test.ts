import { readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, createBrotliCompress, type BrotliCompress } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { PAGE_BROTLI_PARAMS } from "../page-compression";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Text like a page's (Japanese in JSON), 33 KB: the size of a document or an RSC payload (the window keeps 64 KB). */
const PAGE = readFileSync(path.join(ROOT, "messages/ja.json")).subarray(0, 33 * 1024);
const open: BrotliCompress[] = [];
afterAll(() => open.forEach((s) => s.destroy()));

// server/page-compression.ts: every page, RSC payload and action reply in flight holds an encoder
describe("the production server's brotli for pages", () => {
  it("an open compressed response holds well under 1 MB of encoder (a class opens forty at once)", async () => {
    const streams = 60;
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    for (let i = 0; i < streams; i++) {
      const s = createBrotliCompress({ params: PAGE_BROTLI_PARAMS });
      s.on("data", () => undefined);
      // the first chunk of a page, flushed as Next.js flushes each chunk it streams
      s.write(PAGE.subarray(0, 8192));
      s.flush();
      open.push(s);
    }
    await Promise.all(open.map((s) => new Promise<void>((resolve) => s.flush(() => resolve()))));
    const perStream = (process.memoryUsage().rss - before) / streams;
    expect(perStream).toBeLessThan(600 * 1024);
  });

  it("a page comes out no bigger than with brotli's default window", () => {
    const page = brotliCompressSync(PAGE, { params: PAGE_BROTLI_PARAMS }).length;
    const defaultWindow = brotliCompressSync(PAGE, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length;
    expect(page).toBeLessThanOrEqual(defaultWindow);
    expect(page).toBeLessThan(PAGE.length / 3);
  });
});
