import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildIsCurrent, markBuilt, sourceHash } from "../lib/build-hash";

const root = mkdtempSync(path.join(tmpdir(), "build-hash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(rel: string, text: string) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

// `npm start` and the bench reuse a build whose stamp matches the sources (scripts/lib/build-hash.ts)
describe("the build's source hash", () => {
  it("changes when what `npm run build` does after next build changes (the static files' brotli copies), so the next start builds again", () => {
    write("app/page.tsx", "export default function Page() { return null; }\n");
    write("scripts/build.ts", "// next build, then the brotli copies\n");
    write("server/static-brotli.ts", "const QUALITY = 11;\n");
    write(".next/BUILD_ID", "x\n");
    markBuilt(root);
    expect(buildIsCurrent(root)).toBe(true);

    const before = sourceHash(root);
    write("server/static-brotli.ts", "const QUALITY = 10;\n");
    expect(sourceHash(root)).not.toBe(before);
    expect(buildIsCurrent(root)).toBe(false);

    markBuilt(root);
    const again = sourceHash(root);
    write("scripts/build.ts", "// next build, then the brotli copies, then something else\n");
    expect(sourceHash(root)).not.toBe(again);
    expect(buildIsCurrent(root)).toBe(false);
  });
});
