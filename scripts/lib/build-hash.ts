import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * What a production build is made from: a change to any of these needs a new `npm run build`
 * (next build, and what scripts/build.ts does after it: the static files' brotli copies).
 */
const INPUTS = [
  "app",
  "features",
  "platform",
  "screens",
  "server",
  "messages",
  "public",
  "proxy.ts",
  "next.config.ts",
  "tsconfig.json",
  "package-lock.json",
  "prisma/schema.prisma",
  "scripts/build.ts",
  "server/static-brotli.ts",
];
const SKIP = new Set(["node_modules", ".next", "generated"]);
const STAMP = ".next/manabiya-source-hash";

function walk(root: string, rel: string, out: string[]) {
  const full = path.join(root, rel);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) if (!SKIP.has(name)) walk(root, path.join(rel, name), out);
  } else {
    out.push(rel);
  }
}

export function sourceHash(root: string): string {
  const files: string[] = [];
  for (const input of INPUTS) walk(root, input, files);
  const hash = createHash("sha256");
  for (const file of files)
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(path.join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

export function buildIsCurrent(root: string): boolean {
  const stamp = path.join(root, STAMP);
  return (
    existsSync(path.join(root, ".next/BUILD_ID")) &&
    existsSync(stamp) &&
    readFileSync(stamp, "utf8") === sourceHash(root)
  );
}

export function markBuilt(root: string) {
  writeFileSync(path.join(root, STAMP), sourceHash(root));
}
