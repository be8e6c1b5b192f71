/**
 * The build's static files (/_next/static/*: the JavaScript, CSS and other
 * hashed assets) sent brotli-compressed to the browsers that accept it.
 *
 * Brotli at its best quality (11) sends a student's tablet a fifth less than
 * the gzip Next.js compresses with, but costs about a second of CPU per
 * 100 KB: far too slow per request, or even once on the first request of a
 * class. So `npm run build` (scripts/build.ts, which the Docker image, `npm
 * start`, the e2e tests and the bench all build through) compresses every file
 * once into .next/static-br/, with the hash of the file it was made from; the
 * server loads those whose file is unchanged at start. Anything else (a file
 * with no brotli copy, a client that does not accept br, a Range request, an
 * unknown path) goes to Next.js as before, which compresses as the rest of the
 * app is compressed (server/main.ts). docs/adr/0046-brotli-compressed-once.md.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";
import { staticSecurityHeaders } from "../platform/security/headers";

const STATIC_DIR = ".next/static";
const BR_DIR = ".next/static-br";
const MANIFEST = "manifest.json";
const PREFIX = "/_next/static/";
/** What compresses (fonts and images are compressed already), with the type Next.js sends. */
const TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=UTF-8",
  ".css": "text/css; charset=UTF-8",
  ".json": "application/json; charset=UTF-8",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=UTF-8",
};
/** Below this Next.js sends the file uncompressed (its compression's threshold): so does this. */
const MIN_BYTES = 1024;

type Manifest = Record<string, string>; // path under .next/static → sha256 of the file it was made from

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

function walk(dir: string, rel = ""): string[] {
  const full = path.join(dir, rel);
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const child = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? walk(dir, child) : e.isFile() ? [child] : [];
  });
}

/** After `next build`: every compressible static file at brotli quality 11, in .next/static-br/. */
export async function precompressStatic(root: string): Promise<{ files: number; bytes: number; brotli: number }> {
  const source = path.join(root, STATIC_DIR);
  const target = path.join(root, BR_DIR);
  rmSync(target, { recursive: true, force: true });
  const manifest: Manifest = {};
  let bytes = 0;
  let brotli = 0;
  const compress = promisify(brotliCompress);
  const files = walk(source).filter((f) => TYPES[path.extname(f)]);
  // a few at a time, on libuv's threads
  for (let i = 0; i < files.length; i += 4) {
    await Promise.all(
      files.slice(i, i + 4).map(async (rel) => {
        const data = readFileSync(path.join(source, rel));
        if (data.length < MIN_BYTES) return;
        const br = await compress(data, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
        });
        if (br.length >= data.length) return;
        mkdirSync(path.dirname(path.join(target, rel)), { recursive: true });
        writeFileSync(path.join(target, `${rel}.br`), br);
        manifest[rel] = sha256(data);
        bytes += data.length;
        brotli += br.length;
      }),
    );
  }
  mkdirSync(target, { recursive: true });
  writeFileSync(path.join(target, MANIFEST), JSON.stringify(manifest));
  return { files: Object.keys(manifest).length, bytes, brotli };
}

/** Does this Accept-Encoding accept br (`br`, `br;q=0.5`, `*`; not `br;q=0`)? */
export function acceptsBrotli(header: string | string[] | undefined): boolean {
  const list = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").map((part) => {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return { name: name.trim(), q: q ? Number(q.slice(2)) : 1 };
  });
  const br = list.find((e) => e.name === "br") ?? list.find((e) => e.name === "*");
  return br !== undefined && br.q > 0;
}

/** The file a request path names under .next/static, or undefined (bad encoding, NUL, dot segments, backslashes). */
function staticKey(url: string): string | undefined {
  const pathname = url.split("?")[0]!;
  if (!pathname.startsWith(PREFIX)) return undefined;
  let rel: string;
  try {
    rel = decodeURIComponent(pathname.slice(PREFIX.length));
  } catch {
    return undefined;
  }
  if (rel.includes("\0") || rel.includes("\\") || rel.split("/").some((s) => s === "" || s === "." || s === ".."))
    return undefined;
  return rel;
}

type Entry = { br: Buffer; etag: string; type: string };

/** The list of copies `npm run build` wrote last; none when it is missing or cut short (a build interrupted). */
function readManifest(root: string): Manifest {
  const file = path.join(root, BR_DIR, MANIFEST);
  if (!existsSync(file)) return {};
  try {
    const manifest: unknown = JSON.parse(readFileSync(file, "utf8"));
    return manifest !== null && typeof manifest === "object" && !Array.isArray(manifest) ? (manifest as Manifest) : {};
  } catch {
    console.warn(
      `static files: ${BR_DIR}/${MANIFEST} is unreadable; Next.js sends every static file (npm run build makes it again)`,
    );
    return {};
  }
}

/**
 * The production server's handler: true when it answered (br accepted, a
 * brotli copy of an unchanged file), false to leave the request to Next.js.
 * Only the files listed at start can ever be sent: a path is a key into that
 * list, never joined onto the file system.
 */
export function createStaticBrotli(
  root: string,
  production: boolean,
): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const files = new Map<string, Entry>();
  const unusable: string[] = [];
  for (const [rel, hash] of Object.entries(readManifest(root))) {
    const file = path.join(root, STATIC_DIR, rel);
    const copy = path.join(root, BR_DIR, `${rel}.br`);
    // a copy made from another build's file is not this file
    if (!existsSync(file) || sha256(readFileSync(file)) !== hash) continue;
    // a copy a deploy left behind: that file goes to Next.js, the server still starts
    if (!existsSync(copy) || !statSync(copy).isFile()) {
      unusable.push(rel);
      continue;
    }
    files.set(rel, { br: readFileSync(copy), etag: `W/"${hash.slice(0, 32)}-br"`, type: TYPES[path.extname(rel)]! });
  }
  if (unusable.length > 0)
    console.warn(
      `static files: ${unusable.length} brotli copies missing from ${BR_DIR} (${unusable.slice(0, 3).join(", ")}…); Next.js sends those files`,
    );
  const common: [string, string][] = [
    ...staticSecurityHeaders(production).map((h): [string, string] => [h.key, h.value]),
    ["Cache-Control", "public, max-age=31536000, immutable"],
    ["Vary", "Accept-Encoding"],
  ];
  return (req, res) => {
    if (
      (req.method !== "GET" && req.method !== "HEAD") ||
      req.headers.range ||
      !acceptsBrotli(req.headers["accept-encoding"])
    )
      return false;
    const key = req.url ? staticKey(req.url) : undefined;
    const entry = key === undefined ? undefined : files.get(key);
    if (!entry) return false;
    for (const [name, value] of common) res.setHeader(name, value);
    res.setHeader("ETag", entry.etag);
    const match = req.headers["if-none-match"];
    if (match && (match.trim() === "*" || match.split(",").some((t) => t.trim() === entry.etag))) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    res.setHeader("Content-Type", entry.type);
    res.setHeader("Content-Encoding", "br");
    res.setHeader("Content-Length", entry.br.length);
    res.statusCode = 200;
    res.end(req.method === "HEAD" ? undefined : entry.br);
    return true;
  };
}
