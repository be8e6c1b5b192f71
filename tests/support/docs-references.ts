/**
 * The checks of tests/repo/docs-references.test.ts, as pure functions over text (the test reads the files):
 *
 * - a repository path a document names exists;
 * - a section citation, a Markdown file followed by a section name in straight double quotes (one or
 *   several, comma-separated), names a section that the cited file has; the file is `docs/….md`,
 *   `README.md` or `README`;
 * - a code comment cites no issue number (the word "issue" and a number, or "(#" and a number): it says
 *   what is true now instead.
 *
 * Each problem names the file, the line and what dangles. (The examples below name `docs/X.md`, a
 * placeholder: a citation of a placeholder file is an example, not checked.)
 */
import ts from "typescript";

export interface Problem {
  file: string;
  line: number;
  message: string;
}

export const formatProblem = (p: Problem) => `${p.file}:${p.line}: ${p.message}`;

/** The project's top-level folders; a path a document names starts with one of them. */
export const TOP_FOLDERS = [
  "app",
  "features",
  "platform",
  "screens",
  "server",
  "tools",
  "scripts",
  "tests",
  "prisma",
  "docs",
  "messages",
  "public",
  "deploy",
  ".ci",
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A path starts with a top folder and a slash, not inside a longer word, path or URL (so not after a letter,
 * digit, `_`, `.`, `/`, `-`, `@` or `~`), and runs to the next whitespace, backtick, quote or table bar.
 */
const PATH_TOKEN = new RegExp(`(?<![\\w./@~-])(?:${TOP_FOLDERS.map(escape).join("|")})/[^\\s\`'"|]*`, "g");

/**
 * A placeholder or a glob, not one path: it holds `*`, `<`, `{`, `$` or `…`, or a part written as `X` or
 * `NNNN` (as in `prisma/migrations/NNNN_name/`). Such a token is skipped, not checked.
 */
export function isPlaceholder(token: string): boolean {
  return /[*<{$…]/.test(token) || /(?:^|[/._-])(?:X+|N{2,})(?=$|[/._-])/.test(token);
}

/**
 * The path a token names: a `path:line` or `path#anchor` suffix is cut off, then trailing punctuation
 * (`.`, `,`, `:`, `;`, and `)` when the token opens no parenthesis). Brackets stay: `app/projector/[token]`
 * is a real folder.
 */
export function pathOfToken(token: string): string {
  let p = token.replace(/[:#].*$/, "");
  const trailing = p.includes("(") ? /[.,;]+$/ : /[.,;)]+$/;
  while (trailing.test(p)) p = p.replace(trailing, "");
  return p;
}

/** Every path named in a text (placeholders left out), with its line. */
export function pathsIn(text: string): { path: string; line: number }[] {
  const out: { path: string; line: number }[] = [];
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(PATH_TOKEN)) {
      if (isPlaceholder(m[0])) continue;
      const p = pathOfToken(m[0]);
      if (p.includes("/")) out.push({ path: p, line: i + 1 });
    }
  });
  return out;
}

/** The paths a text names that do not exist (`exists` answers for a path relative to the repository). */
export function missingPaths(file: string, text: string, exists: (path: string) => boolean): Problem[] {
  return pathsIn(text)
    .filter(({ path }) => !exists(path))
    .map(({ path, line }) => ({ file, line, message: `names ${path}, which does not exist` }));
}

/**
 * The section names of a Markdown document. A section is
 * - a heading of any level (`#` to `######`), or
 * - a bold title that opens a top-level list item or a paragraph (`- **Scene versions: …**`,
 *   `**The sourcedId record.**`): docs/oneroster.md titles its entries so.
 * Each is known by its whole text (trimmed; a bold title's trailing `.` or `:` dropped) and by its short
 * name, the text before the first ": " or " (" (`## Final answers: the key once shown` is cited as
 * "Final answers"; `### Strict Japan Profile checks (…)` as "Strict Japan Profile checks").
 * A citation must match one of the two exactly (case and spaces included, after trimming).
 * Lines inside fenced code blocks are not headings.
 */
export function sectionsOf(markdown: string): Set<string> {
  const names = new Set<string>();
  const add = (title: string) => {
    const whole = title.replace(/\s+/g, " ").trim();
    if (!whole) return;
    names.add(whole);
    const cut = whole.search(/: | \(/);
    if (cut > 0) names.add(whole.slice(0, cut).trim());
  };
  const lines = markdown.split("\n");
  let fenced = false;
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) return add(heading[1]!);
    const bold = /^(?:[-*+] |\d+\. )?\*\*(.*)$/.exec(line);
    if (!bold) return;
    // the title may wrap: read on (at most three lines) to the closing **
    let text = bold[1]!;
    for (let j = i + 1; !text.includes("**") && j < Math.min(lines.length, i + 4); j++) text += " " + lines[j];
    const end = text.indexOf("**");
    if (end > 0) add(text.slice(0, end).trim().replace(/[.:]$/, ""));
  });
  return names;
}

export interface Citation {
  /** The cited file as written: `docs/X.md`, a feature's `features/<name>/README.md`, `README.md` or `README`. */
  doc: string;
  section: string;
  line: number;
}

/**
 * `docs/X.md "A"` or `docs/X.md "A", "B"` (the path may be in backticks; whitespace, line breaks included,
 * may stand between the path and the first quote); also after a feature's README, `README.md` or `README`.
 */
const CITATION =
  /(?<![\w./-])(docs\/[\w./-]+\.md|features\/[\w-]+\/README\.md|README\.md|README)`?\s+("[^"\n]+"(?:,\s*"[^"\n]+")*)/g;

export function citationsIn(text: string): Citation[] {
  const out: Citation[] = [];
  for (const m of text.matchAll(CITATION)) {
    const line = text.slice(0, m.index).split("\n").length;
    for (const q of m[2]!.matchAll(/"([^"\n]+)"/g)) out.push({ doc: m[1]!, section: q[1]!.trim(), line });
  }
  return out;
}

/** The repository file a citation names (`README` is README.md). */
export const citedFile = (doc: string) => (doc === "README" ? "README.md" : doc);

/**
 * Citations whose file is missing or has no such section (`sectionsIn` gives a file's sections, or null).
 * A citation of a placeholder file (`docs/X.md`, see isPlaceholder) is an example of the form: skipped.
 */
export function danglingCitations(
  file: string,
  text: string,
  sectionsIn: (file: string) => Set<string> | null,
): Problem[] {
  const problems: Problem[] = [];
  for (const c of citationsIn(text)) {
    if (isPlaceholder(c.doc)) continue;
    const sections = sectionsIn(citedFile(c.doc));
    if (!sections) problems.push({ file, line: c.line, message: `cites ${c.doc}, which does not exist` });
    else if (!sections.has(c.section))
      problems.push({ file, line: c.line, message: `cites ${c.doc} "${c.section}": no such heading or titled entry` });
  }
  return problems;
}

/**
 * The comments of a TypeScript/JavaScript source, in place, so lines keep their numbers: comment markers
 * (`//`, `/*`, `*\/`, a JSDoc line's leading `*`) become spaces, and every other character of code becomes
 * `\u0001` (whitespace stays), so a citation cannot run from one comment into the next across code.
 * Comments are found in the trivia between the parser's tokens: text in strings, templates, regular
 * expressions and JSX is not a comment.
 */
export function commentsOf(fileName: string, source: string): string {
  const kind = fileName.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : /\.m?js$/.test(fileName)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const out = source.replace(/[^\s]/g, "\u0001").split("");
  const keep = (from: number, to: number) => {
    for (let i = from; i < to; i++) out[i] = source[i]!;
  };
  // every comment lies in the trivia before some token: whitespace and comments only
  const trivia = (from: number, to: number) => {
    let i = from;
    while (i < to) {
      if (source.startsWith("//", i)) {
        const end = source.indexOf("\n", i);
        const stop = end < 0 || end > to ? to : end;
        out[i] = out[i + 1] = " ";
        keep(i + 2, stop);
        i = stop;
      } else if (source.startsWith("/*", i)) {
        const close = source.indexOf("*/", i + 2);
        const stop = close < 0 ? to : close;
        out[i] = out[i + 1] = " ";
        if (close >= 0) out[close] = out[close + 1] = " ";
        keep(i + 2, stop);
        // a JSDoc's opening stars and each line's leading `*` are markers, not text
        for (let j = i + 2; j < stop && source[j] === "*"; j++) out[j] = " ";
        for (let j = i + 2; j < stop; j++)
          if (source[j] === "\n") {
            let k = j + 1;
            while (k < stop && (source[k] === " " || source[k] === "\t")) k++;
            while (k < stop && source[k] === "*") out[k++] = " ";
          }
        i = stop + 2;
      } else i++;
    }
  };
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(sf);
    if (children.length > 0) return children.forEach(visit);
    // JSX text is text, not trivia: `// x` in it is not a comment
    if (node.kind === ts.SyntaxKind.JsxText || node.kind === ts.SyntaxKind.JsxTextAllWhiteSpaces) return;
    trivia(node.pos, node.getStart(sf));
  };
  visit(sf);
  return out.join("");
}

/**
 * The comments of a Prisma schema, in place like commentsOf: the text after `//` (or `///`) outside a
 * double-quoted string; everything else becomes `\u0001` (whitespace stays).
 */
export function prismaCommentsOf(source: string): string {
  return source
    .split("\n")
    .map((line) => {
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        if (line[i] === '"' && line[i - 1] !== "\\") quoted = !quoted;
        else if (!quoted && line.startsWith("//", i)) {
          const marker = /^\/+/.exec(line.slice(i))![0].length;
          return line.slice(0, i).replace(/\S/g, "\u0001") + " ".repeat(marker) + line.slice(i + marker);
        }
      }
      return line.replace(/\S/g, "\u0001");
    })
    .join("\n");
}

/**
 * A comment citing an issue by number: the word "issue" or "issues", then a number (a "#" before it or
 * not); a number after "(#" (then ")", "." or ","); or "#" with a dotted number (an issue's point).
 */
export const ISSUE_NUMBER = [/\bissues? #?\d+/i, /\(#\d+[).,]/, /(?<![\w&])#\d+\.\d+/];

export function issueNumbersIn(file: string, comments: string): Problem[] {
  const problems: Problem[] = [];
  comments.split("\n").forEach((line, i) => {
    for (const re of ISSUE_NUMBER) {
      const m = re.exec(line);
      if (m) {
        problems.push({ file, line: i + 1, message: `cites an issue number ("${m[0]}"): say what is true now` });
        break;
      }
    }
  });
  return problems;
}
