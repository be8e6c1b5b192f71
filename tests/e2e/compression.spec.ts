import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { BASE_URL } from "./config";
import { storageStateOf } from "./helpers";

/**
 * What the production server sends a tablet's Chromium (server/main.ts,
 * server/static-brotli.ts): the build's static files brotli-compressed
 * once at build, pages compressed with brotli as they stream, gzip for a
 * client that does not accept br, and nothing outside .next/static.
 */
const CHROMIUM = "gzip, deflate, br, zstd";

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
/** A raw request: the path goes out exactly as written (no `..` folding), the body as it came. */
function get(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${BASE_URL}/`, { method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The sign-in page's biggest script: the framework's chunk every student downloads. */
async function biggestScript(): Promise<{ path: string; identity: Buffer }> {
  const page = await get("/signin", { "Accept-Encoding": "identity" });
  const paths = [
    ...new Set([...page.body.toString("utf8").matchAll(/\/_next\/static\/chunks\/[\w.-]+\.js/g)].map((m) => m[0])),
  ];
  expect(paths.length).toBeGreaterThan(3);
  const files = await Promise.all(
    paths.map(async (path) => ({ path, identity: (await get(path, { "Accept-Encoding": "identity" })).body })),
  );
  return files.sort((a, b) => b.identity.length - a.identity.length)[0]!;
}

test.describe("compression as a tablet's Chromium asks for it", () => {
  test("a static script comes brotli-compressed (to exactly the file), cached for a year, and 304 on its ETag", async () => {
    const { path, identity } = await biggestScript();
    expect(identity.length).toBeGreaterThan(20_000);
    const br = await get(path, { "Accept-Encoding": CHROMIUM });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["vary"]).toMatch(/accept-encoding/i);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(br.headers["x-content-type-options"]).toBe("nosniff");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).equals(identity)).toBe(true);
    // smaller than what Next.js's gzip sends
    const gzip = await get(path, { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(identity)).toBe(true);
    expect(br.body.length).toBeLessThan(gzip.body.length * 0.9);

    const etag = br.headers["etag"]!;
    expect(etag).toBeTruthy();
    const again = await get(path, { "Accept-Encoding": CHROMIUM, "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    const head = await get(path, { "Accept-Encoding": CHROMIUM }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(Number(head.headers["content-length"])).toBe(br.body.length);
  });

  test("a client that refuses br (or asks for a range) gets what Next.js sends it", async () => {
    const { path, identity } = await biggestScript();
    const refused = await get(path, { "Accept-Encoding": "gzip, br;q=0" });
    expect(refused.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(refused.body).equals(identity)).toBe(true);
    const plain = await get(path, { "Accept-Encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(identity)).toBe(true);
    const range = await get(path, { "Accept-Encoding": CHROMIUM, Range: "bytes=0-99" });
    expect(range.status).toBe(206);
    expect(range.body.equals(identity.subarray(0, 100))).toBe(true);
  });

  test("a page comes brotli-compressed as it streams", async () => {
    const page = await get("/signin", { "Accept-Encoding": CHROMIUM });
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("br");
    expect(page.headers["vary"]).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(page.body).toString("utf8")).toContain("</html>");
  });

  test("no path leads out of .next/static", async () => {
    for (const path of [
      "/_next/static/../../package.json",
      "/_next/static/%2e%2e/%2e%2e/package.json",
      "/_next/static/chunks/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json",
      "/_next/static/..%2f..%2fpackage.json",
      "/_next/static//etc/passwd",
      "/_next/static/%2fetc%2fpasswd",
      "/_next/static/chunks/%00../../package.json",
      "/_next/static/..\\..\\package.json",
      "/_next/static/static-br/manifest.json",
      "/_next/static-br/manifest.json",
    ]) {
      const reply = await get(path, { "Accept-Encoding": CHROMIUM });
      // Next.js's answers as before: 404, 400, or its redirect of `//` to `/`
      expect([301, 308, 400, 404], path).toContain(reply.status);
      const text =
        reply.headers["content-encoding"] === "br"
          ? brotliDecompressSync(reply.body).toString("utf8")
          : reply.headers["content-encoding"] === "gzip"
            ? gunzipSync(reply.body).toString("utf8")
            : reply.body.toString("utf8");
      expect(text, path).not.toContain('"name": "manabiya"');
      expect(text, path).not.toContain("root:x:0");
      expect(text, path).not.toMatch(/"[\w/.-]+":"[0-9a-f]{64}"/); // the brotli copies' manifest
    }
  });

  test("an event stream passes uncompressed, its first event at once while it stays open", async () => {
    const { cookies } = JSON.parse(readFileSync(storageStateOf("student"), "utf8")) as {
      cookies: { name: string; value: string }[];
    };
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const got = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>(
      (resolve, reject) => {
        const req = http.request(
          `${BASE_URL}/api/v1/live/school/events`,
          { headers: { "Accept-Encoding": CHROMIUM, Cookie: cookie } },
          (res) => {
            let text = "";
            res.on("data", (c: Buffer) => {
              text += c.toString("latin1");
              // the snapshot event, not the end of the stream: compression would hold it back
              if (/^event: /m.test(text)) {
                resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
                req.destroy();
              }
            });
            res.on("end", () => reject(new Error(`the stream ended before its first event: ${text.slice(0, 200)}`)));
          },
        );
        req.on("error", (e) => (req.destroyed ? undefined : reject(e)));
        req.end();
      },
    );
    expect(got.status).toBe(200);
    expect(got.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(got.headers["content-encoding"]).toBeUndefined();
    expect(got.headers["cache-control"]).toMatch(/no-transform/);
  });
});
