import { joined, type Token } from "./furigana-token";

/**
 * A kanji compound the dictionary lacks, cut by the analyser into words read alone: a word of one kanji read
 * with a native (kun) reading, joined on both sides to Sino-Japanese words, is read with its Sino-Japanese (on)
 * reading, as the middle of such a compound is (無|翼|人種 よく, not つばさ; 二|卵|性 らん, not たまご). The on
 * reading is one of the dictionary's own readings of that kanji as a noun (Token.readings), the first of on
 * shape; none, and the word keeps its reading. Only a common noun (名詞,一般): the dictionary's suffixes
 * (〜前 まえ, 〜高 だか, 〜型 がた) keep the reading it gives them, and so does a kanji at either end of a
 * compound (両|岸 りょうぎし, 湯治|宿 とうじやど), where a native reading is as common. The word is marked for the
 * teacher to check (Token.guess).
 */

/** The shape of an on reading in katakana: one mora (with ャュョ), then ン, ウ, イ, ク, キ, ツ or チ at most (キン, ショウ, コツ). */
const ON_SHAPE = /^[\u30a1-\u30f4][ャュョ]?[ンウイクキツチ]?$/u;
const KANJI = /^\p{Script=Han}+$/u;
/** A native reading for certain: two morae or more in a shape no on reading has (ツバサ, タマゴ, スジ). */
const native = (reading: string) => !ON_SHAPE.test(reading) && reading.replace(/[ャュョァィゥェォ]/g, "").length >= 2;
/** A Sino-Japanese word: kanji only, a number, or read with at most 3 kana a kanji (人種 ジンシュ), one kanji in on shape. */
function sino(t: Token | undefined): boolean {
  if (!t?.reading || !KANJI.test(t.surface)) return false;
  if (t.pos?.startsWith("名詞,数")) return true;
  return t.surface.length > 1 ? t.reading.length <= 3 * t.surface.length : ON_SHAPE.test(t.reading);
}

/** The on reading of a one-kanji noun read natively inside a Sino-Japanese compound, or null. */
export function compoundReading(t: Token, before: Token | undefined, after: Token | undefined): string | null {
  if (!t.reading || !t.readings || t.pos !== "名詞,一般" || !native(t.reading)) return null;
  if (!sino(before) || !sino(after) || !joined(before!, t) || !joined(t, after!)) return null;
  return t.readings.find((r) => ON_SHAPE.test(r)) ?? null;
}
