import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const CRUISER = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");

let tree: string | undefined;
afterEach(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
  tree = undefined;
});

/** A small tree with the project's folders and tsconfig alias, the given files in it. */
function plant(files: Record<string, string>): string {
  tree = mkdtempSync(path.join(os.tmpdir(), "manabiya-boundaries-"));
  const all: Record<string, string> = {
    "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["./*"] } } }),
    "platform/db/index.ts": "export const db = () => 1;\n",
    "platform/http/index.ts": "export const problem = () => 1;\n",
    "features/scenes/shared/schema.ts": "export const SCENE = 1;\n",
    "features/play/server/queries.ts": 'import { db } from "@/platform/db";\nexport const q = db;\n',
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  }
  return tree;
}

/** The rules the project's configuration reports on the planted tree (none: an empty list). */
function broken(dir: string): string[] {
  const r = spawnSync(
    process.execPath,
    [
      CRUISER,
      ...["features", "platform", "screens", "app"].filter((f) => existsSync(path.join(dir, f))),
      ...["--config", CONFIG, "--output-type", "json"],
    ],
    { cwd: dir, encoding: "utf8" },
  );
  const report = JSON.parse(r.stdout) as { summary: { violations: { rule: { name: string } }[] } };
  return [...new Set(report.summary.violations.map((v) => v.rule.name))].sort();
}

describe("import boundaries (npm run boundaries)", () => {
  it("exits non-zero on a break, as npm test's step runs it", () => {
    const dir = plant({
      "features/scenes/ui/x.tsx": 'import { q } from "@/features/play/server/queries";\nexport const x = q;\n',
    });
    const r = spawnSync(process.execPath, [CRUISER, "features", "platform", "--config", CONFIG], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.stdout).toContain("features-downwards-scenes");
    expect(r.status).not.toBe(0);
  });

  it("passes a tree that keeps the rules", () => {
    const dir = plant({
      "features/play/ui/view.tsx":
        'import { SCENE } from "@/features/scenes/shared/schema";\nexport const v = SCENE;\n',
      "app/page.tsx": 'import { q } from "@/features/play/server/queries";\nexport default q;\n',
    });
    expect(broken(dir)).toEqual([]);
  });

  it("fails a feature that imports a higher one", () => {
    const dir = plant({
      "features/scenes/ui/x.tsx": 'import { q } from "@/features/play/server/queries";\nexport const x = q;\n',
    });
    expect(broken(dir)).toEqual(["features-downwards-scenes"]);
  });

  it("fails the platform importing a feature, and a feature importing a screen", () => {
    const dir = plant({
      "platform/ui/x.tsx": 'import { SCENE } from "@/features/scenes/shared/schema";\nexport const x = SCENE;\n',
      "screens/home.tsx": "export const home = 1;\n",
      "features/scenes/ui/y.tsx": 'import { home } from "@/screens/home";\nexport const y = home;\n',
    });
    expect(broken(dir)).toEqual(["features-below-screens", "platform-below-features"]);
  });

  it("fails the database reached outside the queries and commands files, even in a component", () => {
    const dir = plant({
      "features/play/server/grid.ts": 'import { db } from "@/platform/db";\nexport const g = db;\n',
      "features/play/ui/page.tsx": 'import { db } from "../../../platform/db";\nexport const p = db;\n',
    });
    expect(broken(dir)).toEqual(["database-in-queries-and-commands"]);
  });

  it("fails a feature's shared code importing its server code", () => {
    const dir = plant({ "features/play/shared/x.ts": 'import { q } from "../server/queries";\nexport const x = q;\n' });
    expect(broken(dir)).toEqual(["shared-is-browser-safe"]);
  });

  it("fails next-auth outside platform/auth", () => {
    const dir = plant({
      "features/play/server/auth.ts": 'import NextAuth from "next-auth";\nexport const a = NextAuth;\n',
    });
    mkdirSync(path.join(dir, "node_modules/next-auth"), { recursive: true });
    writeFileSync(path.join(dir, "node_modules/next-auth/package.json"), '{"name":"next-auth","main":"index.js"}');
    writeFileSync(path.join(dir, "node_modules/next-auth/index.js"), "module.exports = 1;\n");
    expect(broken(dir)).toEqual(["next-auth-in-platform-auth"]);
  });

  it("fails an import cycle", () => {
    const dir = plant({
      "platform/http/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
      "platform/http/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
    });
    expect(broken(dir)).toEqual(["no-circular"]);
  });

  it("fails a cycle closed by type-only imports: the shared type belongs below both modules", () => {
    const typesOnly = plant({
      "platform/http/a.ts": 'import type { B } from "./b";\nexport type A = { b?: B };\n',
      "platform/http/b.ts": 'import type { A } from "./a";\nexport type B = { a?: A };\n',
    });
    expect(broken(typesOnly)).toEqual(["no-circular"]);
    rmSync(typesOnly, { recursive: true, force: true });
    const oneTypeOnly = plant({
      "platform/http/a.ts": 'import type { B } from "./b";\nexport type A = B;\nexport const a = 1;\n',
      "platform/http/b.ts": 'import { a } from "./a";\nexport type B = number;\nexport const b = a;\n',
    });
    expect(broken(oneTypeOnly)).toEqual(["no-circular"]);
  });
});
