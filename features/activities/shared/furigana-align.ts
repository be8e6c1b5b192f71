/**
 * Where the reading of a word goes: over its kanji only, the kana it writes
 * out (okurigana, a prefix such as お) left bare. 「食べる」 read たべる →
 * 食 = た; 「取り扱い」 read とりあつかい → 取 = と, 扱 = あつか.
 */

/** Characters that carry a reading: kanji, the repetition mark 々, 〆, and the counters ヶ/ヵ (三ヶ月). */
const RUBY_CHAR = /[\p{Script=Han}々〆ヶヵ]/u;
/** A word needs furigana when it holds a kanji (々 only counts beside one). */
const HAN = /[\p{Script=Han}]/u;

export const hasKanji = (s: string) => HAN.test(s);

/** Katakana to hiragana (ー and everything else unchanged). */
export function toHiragana(s: string): string {
  return s.replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));
}

/** Hiragana to katakana (ゝゞ to ヽヾ; ー and everything else unchanged). */
export function toKatakana(s: string): string {
  return s.replace(/[\u3041-\u3096\u309d\u309e]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60));
}

/** The kana with its voiced mark (か → が, そ → ぞ, ほ → ぼ): the next code point in every voiceable row. */
export const voiced = (kana: string) => String.fromCharCode(kana.charCodeAt(0) + 1);
/** A は-row kana with its half-voiced mark (は → ぱ, ほ → ぽ): two code points on. */
export const halfVoiced = (kana: string) => String.fromCharCode(kana.charCodeAt(0) + 2);
/** The hiragana a voiced or half-voiced mark may go on (か, さ, た and は rows), and the は row's. */
export const VOICEABLE = /^[かきくけこさしすせそたちつてとはひふへほ]/;
export const HALF_VOICEABLE = /^[はひふへほ]/;

/** Only hiragana (and ー): a word written in kana in a text (ぞく, ぴき, ぺーじ). */
export const isHiragana = (s: string) => /^[\u3041-\u3096ー]+$/u.test(s);

/** Only kana (hiragana, katakana, ー): what a ruby reading may be; a dictionary's "*" or latin never is. */
export const isKana = (s: string) => /^[\u3041-\u3096\u309d\u309eー]+$/u.test(toHiragana(s));

export interface RubySegment {
  /** offset of the kanji run inside the word */
  offset: number;
  base: string;
  /** hiragana */
  reading: string;
}

interface Run {
  offset: number;
  text: string;
  ruby: boolean;
}

function runsOf(word: string): Run[] {
  const runs: Run[] = [];
  let offset = 0;
  for (const ch of word) {
    const ruby = RUBY_CHAR.test(ch);
    const last = runs[runs.length - 1];
    if (last && last.ruby === ruby) last.text += ch;
    else runs.push({ offset, text: ch, ruby });
    offset += ch.length;
  }
  return runs;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The ruby segments of `word` read as `reading` (katakana or hiragana): each
 * kanji run with the part of the reading between the kana around it. When the
 * kana written in the word are not found in the reading (a dictionary reading
 * that does not fit), the whole word carries the whole reading. Empty when
 * the word has no kanji or no reading.
 */
export function alignReading(word: string, reading: string): RubySegment[] {
  const hira = toHiragana(reading.trim());
  if (!hasKanji(word) || hira === "") return [];
  const runs = runsOf(word);
  const pattern = new RegExp(`^${runs.map((r) => (r.ruby ? "(.+?)" : escape(toHiragana(r.text)))).join("")}$`, "u");
  const match = pattern.exec(hira);
  if (!match) return [{ offset: 0, base: word, reading: hira }];
  const rubyRuns = runs.filter((r) => r.ruby);
  return rubyRuns.map((r, i) => ({ offset: r.offset, base: r.text, reading: match[i + 1]! }));
}
