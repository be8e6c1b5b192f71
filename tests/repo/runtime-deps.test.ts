import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The production image keeps only `dependencies` (Dockerfile: npm prune
 * --omit=dev). Everything it runs — `npm start` (scripts/start.ts →
 * server/main.ts), `npm run admin`, `npm run import:legacy`, `npm run
 * db:*`, and the app's own code that Next loads — must import only those
 * packages and Node's own modules.
 */
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const ENTRIES = [
  "scripts/start.ts",
  "server/main.ts",
  "tools/cli/admin.ts",
  "tools/cli/import-legacy.ts",
  "scripts/db.ts",
  "proxy.ts",
  "next.config.ts",
  "app",
  "features",
  "platform",
  "screens",
  "server",
];
const EXTENSIONS = [".ts", ".tsx", ".mjs", ".js"];
const SKIP = new Set(["node_modules", "generated", "tests"]);

/** Specifiers a file loads at run time: `import … from`, `import "x"`, `import("x")`, `require("x")`, `export … from`; not `import type`. */
function specifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  for (const m of code.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"`;()=]*?\bfrom\s+["']([^"']+)["']/gm))
    if (!m[2]) found.push(m[3]!);
  for (const m of code.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) found.push(m[1]!);
  for (const m of code.matchAll(/\b(?:import|require)\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1]!);
  return found;
}

function resolveLocal(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? spec.slice(2) : path.join(path.dirname(from), spec);
  for (const candidate of [
    base,
    ...EXTENSIONS.map((e) => base + e),
    ...EXTENSIONS.map((e) => path.join(base, `index${e}`)),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function files(entry: string, out: string[] = []): string[] {
  if (statSync(entry).isDirectory()) {
    for (const name of readdirSync(entry)) if (!SKIP.has(name)) files(path.join(entry, name), out);
  } else if (EXTENSIONS.some((e) => entry.endsWith(e))) {
    out.push(entry);
  }
  return out;
}

/** Every package the runtime files load, with a file that loads it. */
function runtimePackages(): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = ENTRIES.flatMap((e) => files(e));
  while (queue.length > 0) {
    const file = path.normalize(queue.pop()!);
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiers(readFileSync(file, "utf8"))) {
      if (spec.startsWith(".") || spec.startsWith("@/")) {
        const local = resolveLocal(file, spec);
        if (local && !local.includes(`${path.sep}generated${path.sep}`)) queue.push(local);
        continue;
      }
      const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
      if (!packages.has(name)) packages.set(name, file);
    }
  }
  return packages;
}

describe("what the production image runs", () => {
  it("loads only production dependencies and Node's own modules", () => {
    const packages = runtimePackages();
    expect(packages.size).toBeGreaterThan(10);
    const builtins = new Set(builtinModules);
    const outside = [...packages].filter(
      ([name]) => !name.startsWith("node:") && !builtins.has(name) && !(name in pkg.dependencies),
    );
    expect(
      outside.map(([name, file]) => `${name} (${file}${name in pkg.devDependencies ? ", a devDependency" : ""})`),
    ).toEqual([]);
  });

  it("runs its TypeScript with tsx, a production dependency (the image never builds or compiles at start)", () => {
    expect(pkg.dependencies.tsx).toBeDefined();
    expect(readFileSync("Dockerfile", "utf8")).toMatch(/CMD \["node", "--import", "tsx", "scripts\/start\.ts"\]/);
  });
});
