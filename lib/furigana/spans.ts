import { parseRichText, type RichNode } from "@/lib/richtext/parse";

/** A stretch of the stored markup that shows as plain text: `text === input.slice(start, start + text.length)`. */
export interface TextSpan {
  start: number;
  text: string;
}

/** How many characters of the source a node was parsed from (lib/richtext/parse.ts writes each form one way). */
function sourceLength(node: RichNode): number {
  switch (node.type) {
    case "text":
      return node.value.length;
    case "br":
      return 2; // ||
    case "ruby": // |base(reading), mono-ruby readings joined by ・
      return 3 + node.base.length + (node.parts ? node.parts.map((p) => p.reading).join("・") : node.reading).length;
    case "math": // `tex`
      return 2 + node.tex.length;
    case "color": // {name:…}
      return 3 + node.name.length + childrenLength(node.children);
    default: // **…** and __…__
      return 4 + childrenLength(node.children);
  }
}

const childrenLength = (nodes: RichNode[]) => nodes.reduce((sum, n) => sum + sourceLength(n), 0);

/**
 * The plain-text stretches of `input`, found through the app's one parser:
 * furigana is proposed only there, never inside existing ruby, math or a
 * colour's name. Walks the tree keeping the source offset of each node.
 */
export function textSpans(input: string): TextSpan[] {
  const spans: TextSpan[] = [];
  const walk = (nodes: RichNode[], start: number): number => {
    let at = start;
    for (const node of nodes) {
      if (node.type === "text") spans.push({ start: at, text: node.value });
      else if (node.type === "color") walk(node.children, at + 2 + node.name.length);
      else if (node.type === "bold" || node.type === "underline") walk(node.children, at + 2);
      at += sourceLength(node);
    }
    return at;
  };
  const end = walk(parseRichText(input), 0);
  // the parser's forms and this walk disagree: propose nothing rather than at a wrong place
  if (end !== input.length || spans.some((s) => input.slice(s.start, s.start + s.text.length) !== s.text)) return [];
  return spans;
}
