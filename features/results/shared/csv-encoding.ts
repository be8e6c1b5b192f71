import iconv from "iconv-lite";

/** The character sets a CSV download comes in: UTF-8 with a BOM (Excel today), or Shift_JIS for older software. */
export const CSV_ENCODINGS = ["utf8", "sjis"] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

export function csvEncodingOf(value: string | null | undefined): CsvEncoding {
  return value === "sjis" ? "sjis" : "utf8";
}

/**
 * Characters typed on other systems that Windows' Shift_JIS (Windows-31J,
 * what Excel reads) spells with another code point: the wave dash, minus
 * sign and friends become their Windows look-alikes rather than 〓.
 */
const WINDOWS_LOOKALIKES: Record<string, string> = {
  "\u301C": "\uFF5E", // 〜 → ～
  "\u2212": "\uFF0D", // − → －
  "\u2016": "\u2225", // ‖ → ∥
  "\u00A2": "\uFFE0", // ¢ → ￠
  "\u00A3": "\uFFE1", // £ → ￡
  "\u00AC": "\uFFE2", // ¬ → ￢
  "\u2014": "\u2015", // — → ―
};
/** What stands for a character Shift_JIS lacks (𠮷, emoji…): the geta mark, JIS's own sign for a missing glyph. */
export const MISSING_IN_SJIS = "\u3013";

const encodable = new Map<string, boolean>();
function inSjis(ch: string): boolean {
  let known = encodable.get(ch);
  if (known === undefined) {
    known = iconv.decode(iconv.encode(ch, "cp932"), "cp932") === ch;
    if (encodable.size < 10_000) encodable.set(ch, known);
  }
  return known;
}

/** The text Windows-31J can hold: look-alikes swapped, any other missing character replaced by 〓 (an export never fails on it). */
export function toSjisText(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = WINDOWS_LOOKALIKES[ch] ?? ch;
    out += c.charCodeAt(0) < 0x80 || inSjis(c) ? c : MISSING_IN_SJIS;
  }
  return out;
}

/**
 * Encodes a CSV in chunks (the research export streams): UTF-8 starts with a
 * BOM so that Excel reads it as UTF-8; Shift_JIS has none.
 */
export function csvEncoder(encoding: CsvEncoding): {
  contentType: string;
  encode: (chunk: string) => Uint8Array<ArrayBuffer>;
} {
  if (encoding === "sjis") {
    return {
      contentType: "text/csv; charset=Shift_JIS",
      encode: (chunk) => new Uint8Array(iconv.encode(toSjisText(chunk), "cp932")),
    };
  }
  const encoder = new TextEncoder();
  let first = true;
  return {
    contentType: "text/csv; charset=utf-8",
    encode: (chunk) => {
      const bytes = encoder.encode(first ? `\uFEFF${chunk}` : chunk);
      first = false;
      return bytes;
    },
  };
}
