import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { createStaticBrotli, precompressStatic } from "../static-brotli";

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A build's .next/static with two scripts, and their brotli copies as `npm run build` makes them. */
async function built(): Promise<{ root: string; scripts: Record<string, string> }> {
  const root = mkdtempSync(path.join(tmpdir(), "static-br-"));
  roots.push(root);
  const scripts = {
    "chunks/a.js": `console.log(${JSON.stringify("a".repeat(4000))});\n`,
    "chunks/b.js": `console.log(${JSON.stringify("b".repeat(4000))});\n`,
  };
  for (const [rel, text] of Object.entries(scripts)) {
    mkdirSync(path.dirname(path.join(root, ".next/static", rel)), { recursive: true });
    writeFileSync(path.join(root, ".next/static", rel), text);
  }
  expect((await precompressStatic(root)).files).toBe(2);
  return { root, scripts };
}

/** The handler in a real server (Next.js's place taken by a 404 "next"), and a GET from a browser that accepts br. */
async function get(
  handler: ReturnType<typeof createStaticBrotli>,
  url: string,
): Promise<{ status: number; encoding?: string; body: Buffer }> {
  const server = http.createServer((req, res) => {
    if (!handler(req, res)) res.writeHead(404).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      http
        .get(
          { host: "127.0.0.1", port, path: url, headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () =>
              resolve({
                status: res.statusCode ?? 0,
                encoding: res.headers["content-encoding"],
                body: Buffer.concat(chunks),
              }),
            );
          },
        )
        .on("error", reject);
    });
  } finally {
    server.close();
  }
}

// server/static-brotli.ts: the brotli copies of the build's static files
describe("the static files' brotli copies", () => {
  it("a copy that is missing (a deploy that left *.br files behind) is not served and does not stop the server; the others still are", async () => {
    const { root, scripts } = await built();
    rmSync(path.join(root, ".next/static-br/chunks/a.js.br"));
    const handler = createStaticBrotli(root, true);
    expect((await get(handler, "/_next/static/chunks/a.js")).body.toString()).toBe("next");
    const b = await get(handler, "/_next/static/chunks/b.js");
    expect(b.status).toBe(200);
    expect(b.encoding).toBe("br");
    expect(brotliDecompressSync(b.body).toString("utf8")).toBe(scripts["chunks/b.js"]);
  });

  it("a copy of another build's file is not served", async () => {
    const { root } = await built();
    writeFileSync(path.join(root, ".next/static/chunks/a.js"), `console.log(${JSON.stringify("c".repeat(4000))});\n`);
    const handler = createStaticBrotli(root, true);
    expect((await get(handler, "/_next/static/chunks/a.js")).body.toString()).toBe("next");
    expect((await get(handler, "/_next/static/chunks/b.js")).encoding).toBe("br");
  });

  it("an unreadable list of copies (a build cut short) leaves every file to Next.js", async () => {
    const { root } = await built();
    writeFileSync(path.join(root, ".next/static-br/manifest.json"), '{"chunks/a.js":"ab');
    const handler = createStaticBrotli(root, true);
    expect((await get(handler, "/_next/static/chunks/a.js")).body.toString()).toBe("next");
  });
});
