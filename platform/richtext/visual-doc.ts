import { type Mark, type Node as DocNode, Schema } from "prosemirror-model";
import { colorToken, LIGHT_TOKENS } from "./colors";
import { MAX_INPUT, parseRichText, type RichNode } from "./parse";

/** A colour span drawn as the renderer draws it (render-core.tsx); an unknown name stays uncoloured. */
function colorAttributes(name: string): Record<string, string> {
  const token = colorToken(name);
  if (!token) return { "data-color-name": name };
  const chip = LIGHT_TOKENS.has(token) ? " rt-chip" : "";
  return { "data-color-name": name, class: `rt-color${chip}`, style: `color: var(--color-${token})` };
}

/**
 * The visual editor's document (ProseMirror): the stored markup of platform/richtext/parse.ts
 * as one line of inline content. Text, line breaks (`||`), ruby (`|base(reading)`, the reading as
 * written, mono-ruby's ・ kept) and math (`` `tex` ``) are nodes; colour, bold and underline are marks.
 * The markup stays the storage format: `docOfMarkup` reads it with the one parser, `markupOfDoc`
 * writes it back, and `faithfulMarkup` accepts a document only when its markup reads back as it.
 */
export const visualSchema = new Schema({
  nodes: {
    doc: { content: "inline*" },
    text: { group: "inline" },
    br: {
      group: "inline",
      inline: true,
      selectable: false,
      parseDOM: [{ tag: "br" }],
      toDOM: () => ["br"],
    },
    ruby: {
      group: "inline",
      inline: true,
      atom: true,
      attrs: { base: { validate: "string" }, reading: { validate: "string" } },
      parseDOM: [
        {
          tag: "ruby[data-base]",
          getAttrs: (dom) => ({ base: dom.dataset.base ?? "", reading: dom.dataset.reading ?? "" }),
        },
      ],
      toDOM: (node) => {
        const { base, reading } = node.attrs as { base: string; reading: string };
        return ["ruby", { "data-base": base, "data-reading": reading }, ...rubyParts(base, reading)];
      },
    },
    math: {
      group: "inline",
      inline: true,
      atom: true,
      attrs: { tex: { validate: "string" } },
      parseDOM: [{ tag: "span[data-tex]", getAttrs: (dom) => ({ tex: dom.dataset.tex ?? "" }) }],
      toDOM: (node) => ["span", { "data-tex": node.attrs.tex as string, class: "rt-math-source" }, node.attrs.tex],
    },
  },
  // the order is the nesting order among marks that start and end together: colour outside bold outside underline;
  // none is inclusive: text typed or a formula inserted right after a span stays outside it, as in the markup
  marks: {
    color: {
      inclusive: false,
      attrs: { name: { validate: "string" } },
      parseDOM: [{ tag: "span[data-color-name]", getAttrs: (dom) => ({ name: dom.dataset.colorName ?? "" }) }],
      toDOM: (mark) => ["span", colorAttributes(mark.attrs.name as string), 0],
    },
    bold: { inclusive: false, parseDOM: [{ tag: "strong" }], toDOM: () => ["strong", 0] },
    underline: {
      inclusive: false,
      parseDOM: [{ tag: "span.rt-underline" }],
      toDOM: () => ["span", { class: "rt-underline" }, 0],
    },
  },
});

const MONO_SEPARATOR = "・";

/** Each base with its reading over it, as the renderer draws the ruby (mono-ruby: one per character). */
function rubyParts(base: string, reading: string): (string | [string, string])[] {
  const [node] = parseRichText(`|${base}(${reading})`);
  const parts = node?.type === "ruby" ? (node.parts ?? [node]) : [{ base, reading }];
  return parts.flatMap((part) => [part.base, ["rt", part.reading] as [string, string]]);
}

const { bold, underline, color } = visualSchema.marks;
const MARK_RANK = Object.keys(visualSchema.marks);

function pushNodes(nodes: RichNode[], marks: readonly Mark[], out: DocNode[]) {
  for (const node of nodes) {
    switch (node.type) {
      case "text":
        out.push(visualSchema.text(node.value, marks));
        break;
      case "br":
        out.push(visualSchema.nodes.br.create(null, null, marks));
        break;
      case "ruby": {
        const reading = node.parts ? node.parts.map((p) => p.reading).join(MONO_SEPARATOR) : node.reading;
        out.push(visualSchema.nodes.ruby.create({ base: node.base, reading }, null, marks));
        break;
      }
      case "math":
        out.push(visualSchema.nodes.math.create({ tex: node.tex }, null, marks));
        break;
      case "bold":
        pushNodes(node.children, bold.create().addToSet(marks), out);
        break;
      case "underline":
        pushNodes(node.children, underline.create().addToSet(marks), out);
        break;
      case "color":
        pushNodes(node.children, color.create({ name: node.name }).addToSet(marks), out);
        break;
    }
  }
}

/** The document of stored markup (adjacent text with the same marks is one text node). */
export function docOfMarkup(markup: string): DocNode {
  const out: DocNode[] = [];
  pushNodes(parseRichText(markup), [], out);
  return visualSchema.nodes.doc.create(null, out);
}

const opening = (mark: Mark) =>
  mark.type === color ? `{${mark.attrs.name as string}:` : mark.type === bold ? "**" : "__";
const closing = (mark: Mark) => (mark.type === color ? "}" : mark.type === bold ? "**" : "__");

function leafMarkup(node: DocNode): string {
  switch (node.type) {
    case visualSchema.nodes.br:
      return "||";
    case visualSchema.nodes.ruby:
      return `|${node.attrs.base as string}(${node.attrs.reading as string})`;
    case visualSchema.nodes.math:
      return `\`${node.attrs.tex as string}\``;
    default:
      return node.text ?? "";
  }
}

/** How many nodes from `from` on carry `mark` without a break. */
function runLength(nodes: DocNode[], from: number, mark: Mark): number {
  let n = 0;
  while (from + n < nodes.length && mark.isInSet(nodes[from + n]!.marks)) n++;
  return n;
}

/**
 * The markup of a document, as a teacher would type it: a span stays open while its mark goes on;
 * of the marks that open together the one that lasts longest is outside (then colour, bold, underline).
 */
export function markupOfDoc(doc: DocNode): string {
  const nodes: DocNode[] = [];
  doc.forEach((node) => nodes.push(node));
  const open: Mark[] = [];
  let out = "";
  nodes.forEach((node, i) => {
    let keep = 0;
    while (keep < open.length && open[keep]!.isInSet(node.marks)) keep++;
    while (open.length > keep) out += closing(open.pop()!);
    const adding = node.marks
      .filter((m) => !m.isInSet(open))
      .sort(
        (a, b) =>
          runLength(nodes, i, b) - runLength(nodes, i, a) ||
          MARK_RANK.indexOf(a.type.name) - MARK_RANK.indexOf(b.type.name),
      );
    for (const mark of adding) {
      out += opening(mark);
      open.push(mark);
    }
    out += leafMarkup(node);
  });
  while (open.length > 0) out += closing(open.pop()!);
  return out;
}

/**
 * The markup of `doc` when the one parser reads it back as the same document (and within
 * `maxLength`); null otherwise: text the markup reserves (a typed `|` before a ruby, `**` that
 * would close a span) would change what students see, so the editor refuses that change.
 */
export function faithfulMarkup(doc: DocNode, maxLength = MAX_INPUT): string | null {
  const markup = markupOfDoc(doc);
  if (markup.length > maxLength) return null;
  return docOfMarkup(markup).eq(doc) ? markup : null;
}
