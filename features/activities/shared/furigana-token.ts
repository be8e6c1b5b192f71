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
  /** a common noun of one kanji: all the dictionary's readings of it as a noun (katakana), the analyser's own among them */
  readings?: string[];
  /**
   * true: a rule chose its reading among the dictionary's (furigana-compound-rules.ts), the teacher should check it;
   * false: a rule read the word from its neighbours (furigana-word-rules.ts), sure whatever its part of speech
   */
  guess?: boolean;
}

/** Whether `b` starts where `a` ends (no space or markup between them); false when either is missing. */
export const joined = (a: Token | undefined, b: Token | undefined): a is Token =>
  !!a && !!b && a.start + a.surface.length === b.start;

/** What joins the words of a list: 金・銀・銅, 月、水、金, 月〜金. */
export const LIST_SEPARATOR = /^[・、〜～]$/;

/**
 * A rule reading one word from its neighbours: the word, the one `before` it and the one `after`, `then` the word after
 * `after` and `earlier` the word before `before`; the reading, or null to leave the word as it came.
 */
export type WordRule = (
  t: Token,
  before: Token | undefined,
  after: Token | undefined,
  then: Token | undefined,
  earlier: Token | undefined,
) => string | null;

export const KATAKANA = /^[\p{Script=Katakana}ー・]+$/u;
/** The word's part of speech starts with `prefix` (名詞, 名詞,接尾); false when there is no word. */
export const pos = (t: Token | undefined, prefix: string) => t?.pos?.startsWith(prefix) === true;
/** A noun a compound can grow from: not a number, a pronoun, a dependent noun or a prefix. */
export const contentNoun = (t: Token) => pos(t, "名詞") && !/^名詞,(数|代名詞|非自立)/.test(t.pos!);
