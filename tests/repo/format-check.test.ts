import { readFileSync } from "node:fs";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";

/** `npm test` runs `prettier --check .` (scripts/test-all.ts); these say it looks where the code is. */
describe("the format check", () => {
  it("covers the code of every folder: no source file is ignored", async () => {
    const steps = readFileSync("scripts/test-all.ts", "utf8");
    expect(steps).toContain('["format", ["npx", "prettier", "--check", "."]]');
    for (const file of [
      "app/layout.tsx",
      "features/play/ui/live-grid.css",
      "platform/http/index.ts",
      "platform/ops/lowest-priority.mjs",
      "server/main.ts",
      "tests/e2e/qr.ts",
      "tests/fixtures/legacy-export.ts",
      "messages/ja.json",
      "eslint.config.mjs",
    ]) {
      const info = await prettier.getFileInfo(file, { ignorePath: ".prettierignore" });
      expect({ file, ignored: info.ignored, parser: info.inferredParser !== null }).toEqual({
        file,
        ignored: false,
        parser: true,
      });
    }
  });

  it("fails a file planted out of format, passes it once formatted", async () => {
    const options = { ...(await prettier.resolveConfig("lib/planted.ts")), filepath: "lib/planted.ts" };
    const planted = 'export const  planted = { a:1,b : "x" }\n';
    expect(await prettier.check(planted, options)).toBe(false);
    expect(await prettier.check(await prettier.format(planted, options), options)).toBe(true);
    // the width is the project's 120, not Prettier's 80
    const line = `export const widths = [${Array.from({ length: 20 }, (_, i) => i * 10).join(", ")}];\n`;
    expect(line.length).toBeGreaterThan(80);
    expect(line.length).toBeLessThanOrEqual(120);
    expect(await prettier.check(line, options)).toBe(true);
  });
});
