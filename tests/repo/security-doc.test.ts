/**
 * docs/security.md names the test that proves each threat. A reference is
 * one line (a list item or a table row) holding
 *
 *     tests/<path> — "<test title>"
 *
 * (path relative to the repository, an em dash between spaces, the title in
 * straight double quotes, exactly as written in the test(...) / it(...) call;
 * a title made of a template literal or an it.each "%s" matches with any text
 * in place of `${...}` / `%s`). This test fails when a named file is missing
 * or holds no test with that title, so the document cannot name a test that
 * does not exist.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REFERENCE = /((?:features\/[\w-]+\/|platform\/|server\/|tools\/|scripts\/)?tests\/[\w./-]+\.tsx?) — "([^"]+)"/g;

function referencesIn(markdown: string): { file: string; title: string }[] {
  return [...markdown.matchAll(REFERENCE)].map((m) => ({ file: m[1]!, title: m[2]! }));
}

const TEST_CALLS = new Set(["test", "it"]);

/** The callee's root name when it is test/it, test.only, test.skip, it.each(...), test.describe is not one. */
function isTestCall(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return TEST_CALLS.has(callee.text);
  if (ts.isPropertyAccessExpression(callee)) {
    if (callee.name.text === "describe" || callee.name.text === "step") return false;
    return isTestCall(callee.expression);
  }
  if (ts.isCallExpression(callee)) return isTestCall(callee.expression); // it.each(rows)("title", ...)
  return false;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Every test title of a file, as a pattern (`${...}` and printf-style %s/%d/%i/%j in it.each titles match any text). */
function testTitles(source: string, fileName = "x.ts"): RegExp[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const out: RegExp[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && isTestCall(node.expression) && node.arguments.length > 0) {
      const first = node.arguments[0]!;
      let parts: string[] | null = null;
      if (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) parts = [first.text];
      else if (ts.isTemplateExpression(first))
        parts = [first.head.text, ...first.templateSpans.map((s) => s.literal.text)];
      if (parts) {
        const each = ts.isCallExpression(node.expression);
        const body = parts
          .map((p) =>
            each
              ? p
                  .split(/%[sdijo]/)
                  .map(escape)
                  .join(".+")
              : escape(p),
          )
          .join(".+");
        out.push(new RegExp(`^${body}$`));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

function missingReferences(markdown: string): string[] {
  const problems: string[] = [];
  // a file named by many rows is parsed once (parsing each time took seconds on a loaded machine)
  const titlesOf = new Map<string, RegExp[]>();
  for (const { file, title } of referencesIn(markdown)) {
    const full = path.join(ROOT, file);
    if (!existsSync(full)) {
      problems.push(`${file}: no such file`);
      continue;
    }
    if (!titlesOf.has(file)) titlesOf.set(file, testTitles(readFileSync(full, "utf8"), file));
    if (!titlesOf.get(file)!.some((p) => p.test(title))) problems.push(`${file}: no test titled "${title}"`);
  }
  return problems;
}

describe("docs/security.md names tests that exist", () => {
  const doc = readFileSync(path.join(ROOT, "docs/security.md"), "utf8");

  it("every test it names exists, in the file it names, with that exact title", () => {
    expect(missingReferences(doc)).toEqual([]);
  });

  // the document must name at least one test, so the check above cannot pass on an empty list
  it("names at least one test (threat → test table present)", () => {
    expect(referencesIn(doc).length).toBeGreaterThanOrEqual(1);
  });

  it("the checker itself: finds plain, template and it.each titles, and reports a wrong title or file", () => {
    const src = [
      'test("plain title", () => {});',
      "test.describe('group', () => { test(`page ${x.pattern}`, async () => {}); });",
      'it.each(calls)("%s: refused for a student", async () => {});',
      'test.describe("not a test", () => {});',
    ].join("\n");
    const titles = testTitles(src);
    const has = (t: string) => titles.some((p) => p.test(t));
    expect(has("plain title")).toBe(true);
    expect(has("page /dashboard/teacher/home")).toBe(true);
    expect(has("delete: refused for a student")).toBe(true);
    expect(has("not a test")).toBe(false);
    expect(has("plain")).toBe(false);
    expect(referencesIn('| x | tests/e2e/matrix.spec.ts — "every route handler has a row in the matrix" |')).toEqual([
      { file: "tests/e2e/matrix.spec.ts", title: "every route handler has a row in the matrix" },
    ]);
    expect(missingReferences('- tests/e2e/matrix.spec.ts — "every route handler has a row in the matrix"')).toEqual([]);
    expect(missingReferences('- tests/e2e/matrix.spec.ts — "no such title"')).toEqual([
      'tests/e2e/matrix.spec.ts: no test titled "no such title"',
    ]);
    expect(missingReferences('- tests/e2e/nope.spec.ts — "x"')).toEqual(["tests/e2e/nope.spec.ts: no such file"]);
  });
});
