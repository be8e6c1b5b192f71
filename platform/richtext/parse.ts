/**
 * The rich-text markup of docs/requirements.md §5, parsed into a small tree:
 *   ||            line break
 *   |base(read)   ruby (full-width parentheses accepted too); group ruby, one
 *                 reading over the whole base (jukujikun: |今日(きょう))
 *   |漢字(かん・じ) mono-ruby: as many ・-separated readings as the base has
 *                 characters, one reading per character (otherwise group ruby)
 *   `tex`         inline math
 *   {colour:text} colour span
 *   **text**      bold
 *   __text__      underline
 * Never throws; malformed markup stays literal text; linear time; input
 * longer than MAX_INPUT is treated as plain text.
 */
export type RichNode =
  | { type: "text"; value: string }
  | { type: "br" }
  /** `reading` is what is read aloud (mono-ruby: the parts joined); `parts` only for mono-ruby. */
  | { type: "ruby"; base: string; reading: string; parts?: RubyPart[] }
  | { type: "math"; tex: string }
  | { type: "color"; name: string; children: RichNode[] }
  | { type: "bold"; children: RichNode[] }
  | { type: "underline"; children: RichNode[] };

export interface RubyPart {
  base: string;
  reading: string;
}

export const MAX_INPUT = 20_000;
const MAX_DEPTH = 16;

const RUBY = /\|([^|()（）\n`{}*_]+?)[(（]([^()（）\n|`]+)[)）]/y;
const COLOR_OPEN = /\{([a-z][a-z-]{0,30}):/y;

const MONO_SEPARATOR = "・";
/** A base character with the combining marks after it (variation selectors included). */
const BASE_CHARACTER = /\P{M}\p{M}*/gu;

/** Mono-ruby when the reading has one non-empty ・-part per base character; else group ruby as written. */
function rubyNode(base: string, reading: string): RichNode {
  if (!reading.includes(MONO_SEPARATOR)) return { type: "ruby", base, reading };
  const readings = reading.split(MONO_SEPARATOR);
  const chars = base.match(BASE_CHARACTER) ?? [];
  if (chars.join("") !== base || chars.length !== readings.length || readings.some((r) => r.trim() === "")) {
    return { type: "ruby", base, reading };
  }
  const parts = chars.map((c, i) => ({ base: c, reading: readings[i]! }));
  return { type: "ruby", base, reading: readings.join(""), parts };
}

function pushText(nodes: RichNode[], value: string) {
  const last = nodes[nodes.length - 1];
  if (last?.type === "text") last.value += value;
  else nodes.push({ type: "text", value });
}

/** For each position, the first index at or after it where `token` starts (-1: none). */
function nextIndexTable(input: string, token: string): Int32Array {
  const table = new Int32Array(input.length + 1).fill(-1);
  let next = -1;
  for (let i = input.length - 1; i >= 0; i--) {
    if (input.startsWith(token, i)) next = i;
    table[i] = next;
  }
  return table;
}

/** The matching `}` of every `{` (nesting counted), in one pass. */
function braceMatches(input: string): Map<number, number> {
  const matches = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < input.length; i++) {
    if (input[i] === "{") open.push(i);
    else if (input[i] === "}" && open.length > 0) matches.set(open.pop()!, i);
  }
  return matches;
}

/**
 * A span closes at the first closing delimiter after it (`**`, `__`, a
 * backtick) or at its matching brace; its content is parsed inside those
 * bounds. Each character is visited once per level: O(n) with the tables.
 */
export function parseRichText(input: string): RichNode[] {
  if (typeof input !== "string" || input === "") return [];
  if (input.length > MAX_INPUT) return [{ type: "text", value: input }];
  const next = { "**": nextIndexTable(input, "**"), __: nextIndexTable(input, "__"), "`": nextIndexTable(input, "`") };
  const braces = braceMatches(input);

  const parseRange = (start: number, end: number, depth: number): RichNode[] => {
    const nodes: RichNode[] = [];
    let i = start;
    while (i < end) {
      const ch = input[i]!;
      if (ch === "|" && input[i + 1] === "|" && i + 1 < end) {
        nodes.push({ type: "br" });
        i += 2;
        continue;
      }
      if (ch === "|") {
        RUBY.lastIndex = i;
        const m = RUBY.exec(input);
        if (m && RUBY.lastIndex <= end) {
          nodes.push(rubyNode(m[1]!, m[2]!));
          i = RUBY.lastIndex;
          continue;
        }
      } else if (ch === "`") {
        const close = next["`"][i + 1] ?? -1;
        if (close > i + 1 && close < end) {
          nodes.push({ type: "math", tex: input.slice(i + 1, close) });
          i = close + 1;
          continue;
        }
      } else if ((ch === "*" || ch === "_") && input[i + 1] === ch && i + 1 < end) {
        const mark = ch === "*" ? "**" : "__";
        const close = next[mark][i + 2] ?? -1;
        if (depth < MAX_DEPTH && close > i + 2 && close + 2 <= end) {
          const children = parseRange(i + 2, close, depth + 1);
          nodes.push(mark === "**" ? { type: "bold", children } : { type: "underline", children });
          i = close + 2;
          continue;
        }
        pushText(nodes, mark);
        i += 2;
        continue;
      } else if (ch === "{" && depth < MAX_DEPTH) {
        COLOR_OPEN.lastIndex = i;
        const m = COLOR_OPEN.exec(input);
        const close = braces.get(i);
        if (m && close !== undefined && close > COLOR_OPEN.lastIndex && close < end) {
          nodes.push({ type: "color", name: m[1]!, children: parseRange(COLOR_OPEN.lastIndex, close, depth + 1) });
          i = close + 1;
          continue;
        }
      }
      pushText(nodes, ch);
      i += 1;
    }
    return nodes;
  };

  return parseRange(0, input.length, 0);
}
