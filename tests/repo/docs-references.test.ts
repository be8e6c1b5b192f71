/**
 * The documents' references hold: README.md and every Markdown file under docs/ (the decision records
 * in docs/adr/ too) name repository paths that exist, and every section citation (`docs/X.md "Section"`)
 * in them and in the code's comments (.ts, .tsx and .mjs files at the root and under app, components,
 * lib, scripts, tests and prisma, and prisma/schema.prisma) names a section the cited file has; a docs/
 * path those comments name (a decision record, docs/adr/NNNN-….md) exists; the code's comments cite no
 * issue numbers.
 * The rules, and what they skip, are in tests/support/docs-references.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  citationsIn,
  commentsOf,
  danglingCitations,
  formatProblem,
  isPlaceholder,
  issueNumbersIn,
  missingPaths,
  pathOfToken,
  pathsIn,
  prismaCommentsOf,
  sectionsOf,
  type Problem,
} from "../support/docs-references";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CODE_FOLDERS = ["app", "features", "platform", "screens", "server", "tools", "scripts", "tests", "prisma"];
const SKIPPED = new Set(["platform/db/generated", "node_modules", ".next", ".data", "test-results"]);
const CODE = /\.(ts|tsx|mjs)$/;

/** Files under a folder (relative to the repository) whose names match, skipped folders left out. */
function filesUnder(folder: string, name: RegExp): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
    const rel = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(rel) && !SKIPPED.has(entry.name)) out.push(...filesUnder(rel, name));
    } else if (name.test(entry.name)) out.push(rel);
  }
  return out;
}

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
// the feature READMEs name their own files from the feature's folder (`server/queries.ts`)
const FEATURE_DOCS = filesUnder("features", /^README\.md$/);
const DOCS = ["README.md", ...filesUnder("docs", /\.md$/), ...FEATURE_DOCS];
const CODE_FILES = [
  ...readdirSync(ROOT).filter((f) => CODE.test(f) && !f.endsWith(".d.ts")),
  ...CODE_FOLDERS.flatMap((f) => filesUnder(f, CODE)),
];

const sectionsCache = new Map<string, Set<string> | null>();
function sectionsIn(file: string): Set<string> | null {
  if (!sectionsCache.has(file)) {
    const full = path.join(ROOT, file);
    sectionsCache.set(file, existsSync(full) ? sectionsOf(readFileSync(full, "utf8")) : null);
  }
  return sectionsCache.get(file)!;
}

let comments: Map<string, string> | undefined;
/** Each code file's comments (parsed once, on first use). */
function codeComments(): Map<string, string> {
  comments ??= new Map([
    ...CODE_FILES.map((f): [string, string] => [f, commentsOf(f, read(f))]),
    ["prisma/schema.prisma", prismaCommentsOf(read("prisma/schema.prisma"))],
  ]);
  return comments;
}

const report = (problems: Problem[]) => problems.map(formatProblem);

describe("docs references", () => {
  it("reads the documents and the code it should", () => {
    expect(DOCS).toEqual(
      expect.arrayContaining([
        "README.md",
        "docs/architecture.md",
        "docs/adr/README.md",
        "docs/adr/0001-display-language-ids.md",
        "features/play/README.md",
      ]),
    );
    expect(CODE_FILES).toEqual(
      expect.arrayContaining([
        "proxy.ts",
        "eslint.config.mjs",
        "platform/http/action.ts",
        "app/layout.tsx",
        "prisma/seed.ts",
      ]),
    );
    expect(CODE_FILES.some((f) => f.startsWith("platform/db/generated/") || f.includes("node_modules"))).toBe(false);
  });

  it("every repository path README.md, docs/ and the feature READMEs name exists", () => {
    const existsFrom = (doc: string) => (p: string) =>
      existsSync(path.join(ROOT, p)) ||
      (FEATURE_DOCS.includes(doc) && existsSync(path.join(ROOT, path.dirname(doc), p)));
    expect(report(DOCS.flatMap((doc) => missingPaths(doc, read(doc), existsFrom(doc))))).toEqual([]);
  });

  it('every `docs/X.md "Section"` citation in the documents names a section of that file', () => {
    expect(report(DOCS.flatMap((doc) => danglingCitations(doc, read(doc), sectionsIn)))).toEqual([]);
  });

  it('every `docs/X.md "Section"` citation in the code\'s comments names a section of that file', () => {
    const problems = [...codeComments()].flatMap(([file, text]) => danglingCitations(file, text, sectionsIn));
    expect(report(problems)).toEqual([]);
  });

  it("every docs/ path the code's comments name exists (a decision record is cited by its path)", () => {
    const exists = (p: string) => !p.startsWith("docs/") || existsSync(path.join(ROOT, p));
    const problems = [...codeComments()].flatMap(([file, text]) => missingPaths(file, text, exists));
    expect(report(problems)).toEqual([]);
  });

  it("no code comment cites an issue number", () => {
    const problems = [...codeComments()].flatMap(([file, text]) => issueNumbersIn(file, text));
    expect(report(problems)).toEqual([]);
  });

  describe("the checker", () => {
    const exists = (p: string) => ["platform/http/action.ts", "app/projector/[token]", "docs/a.md"].includes(p);

    it("takes a path's token as written: suffixes and trailing punctuation off, brackets kept", () => {
      expect(pathOfToken("platform/http/action.ts:12")).toBe("platform/http/action.ts");
      expect(pathOfToken("platform/http/action.ts#defineAction")).toBe("platform/http/action.ts");
      expect(pathOfToken("platform/http/action.ts),")).toBe("platform/http/action.ts");
      expect(pathOfToken("platform/http/action.ts.")).toBe("platform/http/action.ts");
      expect(pathOfToken("platform/http/action.ts;")).toBe("platform/http/action.ts");
      expect(pathOfToken("app/projector/[token]")).toBe("app/projector/[token]");
      for (const p of ["prisma/content/templates/*.json", "tests/<file>", "app/api/{token}/", "lib/…/x.ts"])
        expect(isPlaceholder(p)).toBe(true);
      for (const p of ["prisma/migrations/NNNN_name/", "docs/X.md", "lib/X/y.ts", "messages/${id}.json"])
        expect(isPlaceholder(p)).toBe(true);
      for (const p of [
        "platform/http/action.ts",
        "app/api/auth/[...nextauth]",
        "components/ui/katex/fonts/KaTeX_Main.woff2",
      ])
        expect(isPlaceholder(p)).toBe(false);
    });

    it("finds paths in backticks, in parentheses and as plain tokens, not inside URLs or longer paths", () => {
      const text = [
        "The wrapper (`platform/http/action.ts`, see platform/http/action.ts:9) and app/projector/[token].",
        "Not https://example.com/lib/x.ts, not node_modules/lib/x.ts, not `prisma/content/templates/*.json`.",
      ].join("\n");
      expect(pathsIn(text)).toEqual([
        { path: "platform/http/action.ts", line: 1 },
        { path: "platform/http/action.ts", line: 1 },
        { path: "app/projector/[token]", line: 1 },
      ]);
    });

    it("reports a planted missing path with its file and line, and accepts one that exists", () => {
      expect(missingPaths("docs/a.md", "# A\n\nSee `platform/http/action.ts` and platform/gone.ts.", exists)).toEqual([
        { file: "docs/a.md", line: 3, message: "names platform/gone.ts, which does not exist" },
      ]);
      expect(
        missingPaths("docs/a.md", "See `platform/http/action.ts`, app/projector/[token] and docs/a.md.", exists),
      ).toEqual([]);
    });

    const doc = [
      "# Doc",
      "## Final answers: the key once shown",
      "### Strict checks (issue 9)",
      "```sh",
      "# not a heading",
      "```",
      "- **Scene versions: a version number per scene, earlier content",
      "  kept** (more): text",
      "- **Live sessions for one class** (more): text",
      "**The sourcedId record.** Every import",
      "  - **An indented entry**: not a section",
      "- Plain item: not a section",
    ].join("\n");

    it("knows a document's sections: headings and bold-titled entries, by whole text or short name", () => {
      expect([...sectionsOf(doc)].sort()).toEqual(
        [
          "Doc",
          "Final answers",
          "Final answers: the key once shown",
          "Live sessions for one class",
          "Scene versions",
          "Scene versions: a version number per scene, earlier content kept",
          "Strict checks",
          "Strict checks (issue 9)",
          "The sourcedId record",
        ].sort(),
      );
    });

    it("reads citations, several after one file and across a comment's lines", () => {
      expect(citationsIn('see docs/a.md "A", "B" and `docs/b.md` "C"; README "D".')).toEqual([
        { doc: "docs/a.md", section: "A", line: 1 },
        { doc: "docs/a.md", section: "B", line: 1 },
        { doc: "docs/b.md", section: "C", line: 1 },
        { doc: "README", section: "D", line: 1 },
      ]);
      expect(citationsIn('see features/scenes/README.md "Images".')).toEqual([
        { doc: "features/scenes/README.md", section: "Images", line: 1 },
      ]);
      const source =
        '/**\n * Saved (docs/a.md\n * "Final answers").\n */\nconst x = "docs/a.md \\"Nope\\""; // docs/a.md\n// "Doc"\n';
      expect(citationsIn(commentsOf("x.ts", source))).toEqual([
        { doc: "docs/a.md", section: "Final answers", line: 2 },
        { doc: "docs/a.md", section: "Doc", line: 5 },
      ]);
    });

    it("reports a planted dangling section and a missing file, and accepts good citations", () => {
      const sectionsIn = (file: string) => (file === "docs/a.md" ? sectionsOf(doc) : null);
      const good = 'docs/a.md "Final answers", "Scene versions"; docs/a.md "The sourcedId record"; docs/X.md "Any"';
      expect(danglingCitations("lib/x.ts", good, sectionsIn)).toEqual([]);
      expect(
        danglingCitations("lib/x.ts", 'one\n(docs/a.md "Final answers", "Final")\ndocs/b.md "A"', sectionsIn),
      ).toEqual([
        { file: "lib/x.ts", line: 2, message: 'cites docs/a.md "Final": no such heading or titled entry' },
        { file: "lib/x.ts", line: 3, message: "cites docs/b.md, which does not exist" },
      ]);
      // exact: case, a word prefix and a plain list item's lead do not match
      for (const section of ["final answers", "Scene", "Plain item", "An indented entry", "not a heading"])
        expect(danglingCitations("x", `docs/a.md "${section}"`, sectionsIn)).toHaveLength(1);
    });

    it("reads comments only: not strings, templates, regular expressions or JSX text", () => {
      const source = [
        "/** Doc comment */",
        'const s = "// not a comment"; // trailing',
        "const r = /\\/\\/x/; /* block */",
        "const j = <p>// text {/* in JSX */}</p>;",
        "const t = `// template ${1 /* in template */}`;",
      ].join("\n");
      const comments = commentsOf("x.tsx", source);
      expect(comments.split("\n")).toHaveLength(5);
      expect(
        comments
          .replace(/\u0001/g, "")
          .split(/\s+/)
          .filter(Boolean),
      ).toEqual(["Doc", "comment", "trailing", "block", "in", "JSX", "in", "template"]);
      const prisma = prismaCommentsOf('/// A model\nmodel A {\n  url String @default("http://x") // a default\n}');
      expect(
        prisma
          .replace(/\u0001/g, "")
          .split(/\s+/)
          .filter(Boolean),
      ).toEqual(["A", "model", "a", "default"]);
    });

    it("reports a comment citing an issue number, and accepts one that says what is true", () => {
      const planted = [
        "/**",
        " * Sessions end when they should (issue #17): a token carries the version.",
        " * Required means required (Issue 17, point 2).",
        " */",
        "// #18.8: a person's display language",
        "// a language (#18) and issues 21 and 22",
        '// a colour "#123456", an anchor docs/a.md#part, &#12; in HTML: fine',
        'const title = "issue #17 in a string is not a comment";',
      ].join("\n");
      expect(issueNumbersIn("lib/x.ts", commentsOf("lib/x.ts", planted)).map((p) => p.line)).toEqual([2, 3, 5, 6]);
      expect(issueNumbersIn("lib/x.ts", commentsOf("lib/x.ts", planted))[0]).toEqual({
        file: "lib/x.ts",
        line: 2,
        message: 'cites an issue number ("issue #17"): say what is true now',
      });
    });
  });
});
