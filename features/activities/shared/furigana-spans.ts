import { parseRichText, type RichNode } from "@/platform/richtext/parse";

/** A stretch of the stored markup that shows as plain text: `text === input.slice(start, start + text.length)`. */
export interface TextSpan {
  start: number;
  text: string;
}

/** How many characters of the source a node was parsed from (platform/richtext/parse.ts writes each form one way). */
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

/** A ruby of the markup: `|base(reading)` at `start` in the source, `length` characters long. */
export interface RubySpan {
  start: number;
  length: number;
  base: string;
  reading: string;
}

/** The plain-text stretches and the rubies of `input`, with their source offsets; null when the walk and the parser disagree. */
function walkMarkup(input: string): { spans: TextSpan[]; rubies: RubySpan[] } | null {
  const spans: TextSpan[] = [];
  const rubies: RubySpan[] = [];
  const walk = (nodes: RichNode[], start: number): number => {
    let at = start;
    for (const node of nodes) {
      if (node.type === "text") spans.push({ start: at, text: node.value });
      else if (node.type === "ruby")
        rubies.push({ start: at, length: sourceLength(node), base: node.base, reading: node.reading });
      else if (node.type === "color") walk(node.children, at + 2 + node.name.length);
      else if (node.type === "bold" || node.type === "underline") walk(node.children, at + 2);
      at += sourceLength(node);
    }
    return at;
  };
  const end = walk(parseRichText(input), 0);
  if (end !== input.length || spans.some((s) => input.slice(s.start, s.start + s.text.length) !== s.text)) return null;
  return { spans, rubies };
}

/**
 * The plain-text stretches of `input`, found through the app's one parser:
 * furigana is proposed only there, never inside existing ruby, math or a
 * colour's name. Walks the tree keeping the source offset of each node.
 */
export function textSpans(input: string): TextSpan[] {
  // the parser's forms and this walk disagree: propose nothing rather than at a wrong place
  return walkMarkup(input)?.spans ?? [];
}

/** The rubies of `input` (stored markup) at their source offsets, through the one parser; none when the walk disagrees with it. */
export function rubySpans(input: string): RubySpan[] {
  return walkMarkup(input)?.rubies ?? [];
}

/** The analyser's time grows faster than the length of an unbroken stretch (10,000 kanji: ~4 s, 100 × 100: ~40 ms). */
const MAX_CHUNK = 128;
/** Where a stretch is best cut: after punctuation or a space; else after kana (a particle, okurigana). */
const SENTENCE_BREAK = /[\s、。，．,.!?！？・「」『』（）()]/u;
const WORD_BREAK = /\p{Script=Hiragana}/u;

/** The end of the last character in text[from, to) that `re` matches, or -1. */
function lastBreak(text: string, from: number, to: number, re: RegExp): number {
  for (let i = to - 1; i >= from; i--) if (re.test(text[i]!)) return i + 1;
  return -1;
}

/** `text` in pieces of at most MAX_CHUNK characters, each cut at the best break in the window's second half (else at its end, never inside a surrogate pair). */
export function chunksOf(text: string): TextSpan[] {
  const chunks: TextSpan[] = [];
  let start = 0;
  while (text.length - start > MAX_CHUNK) {
    const from = start + MAX_CHUNK / 2;
    const end = start + MAX_CHUNK;
    let cut = lastBreak(text, from, end, SENTENCE_BREAK);
    if (cut < 0) cut = lastBreak(text, from, end, WORD_BREAK);
    if (cut < 0) cut = /[\udc00-\udfff]/.test(text[end] ?? "") ? end - 1 : end;
    chunks.push({ start, text: text.slice(start, cut) });
    start = cut;
  }
  chunks.push({ start, text: text.slice(start) });
  return chunks;
}
