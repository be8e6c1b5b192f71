/**
 * How typed answers are compared (fill-in-the-blanks, features/scenes/shared/fill-blanks.ts): two answers
 * match when their folded forms are equal. Folding, in this order:
 * 1. Unicode NFKC: full-width letters, digits and signs become half-width (Ａ→A, １→1, ＋→+), half-width
 *    katakana become full-width (ｶ→カ), compatibility characters are decomposed (㎏→kg);
 * 2. every white space removed (spaces between words, the ideographic space, tabs);
 * 3. Latin letters to lower case;
 * 4. katakana to hiragana (ァ–ヶ → ぁ–ゖ; ー and other marks stay).
 * Nothing else: kanji never become their reading here (a reading matches only when the teacher writes it as
 * the accepted answer's ruby, fill-blanks.ts), and okurigana or long vowels are not guessed.
 */
const KATAKANA = /[\u30A1-\u30F6]/g;
const HIRAGANA_OFFSET = 0x60;

export function foldAnswer(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\s+/gu, "")
    .toLowerCase()
    .replace(KATAKANA, (c) => String.fromCharCode(c.charCodeAt(0) - HIRAGANA_OFFSET));
}
