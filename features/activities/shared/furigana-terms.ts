/**
 * Terms of 理科 and 数学 the analyser cuts into words it reads alone, as the textbooks read them: 日周運動 にち しゅう
 * (にっしゅう), 年周運動 とし しゅう, 底面積 そこ めんせき, 陽イオン ひ, 陰イオン かげ; and the institutions 公民 names,
 * which it marks as proper nouns (衆議院(しゅうぎいん)?); 社会's 雨温図 あめ ゆたか, 理科's ヨウ素 もと, and the lower
 * grades' words written half in kana or as numerals: こん虫 むし, たて物 ぶつ, じどう車 くるま, よう虫 むし, じ石 いし, 九九
 * きゅう きゅう, 一行日記 いっこう. Each is a whole word, found only where the analyser's words start and end
 * (furigana-places.ts says why). [written, read]
 */
export const CURRICULUM_TERMS: [string, string][] = [
  ["日周運動", "にっしゅううんどう"],
  ["年周運動", "ねんしゅううんどう"],
  ["底面積", "ていめんせき"],
  ["陽イオン", "ようイオン"],
  ["陰イオン", "いんイオン"],
  ["衆議院", "しゅうぎいん"],
  ["参議院", "さんぎいん"],
  ["最高裁判所", "さいこうさいばんしょ"],
  ["雨温図", "うおんず"],
  ["ヨウ素", "ヨウそ"],
  ["九九", "くく"],
  ["一行日記", "いちぎょうにっき"],
  ["こん虫", "こんちゅう"],
  ["たて物", "たてもの"],
  ["じどう車", "じどうしゃ"],
  ["よう虫", "ようちゅう"],
  ["じ石", "じしゃく"],
];
