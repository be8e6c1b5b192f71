/** One word of the analyser's output, at its offset in the text it was given. */
export interface Token {
  start: number;
  surface: string;
  /** katakana or hiragana; absent for words the dictionary does not know */
  reading?: string | null;
  /** the analyser's part of speech, its fields joined by commas (名詞,固有名詞,人名) */
  pos?: string;
  /** a word the dictionary does not have (the analyser guessed where it starts and ends) */
  unknown?: boolean;
}
