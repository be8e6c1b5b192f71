import { HALF_VOICEABLE, halfVoiced, isHiragana, toHiragana, toKatakana, VOICEABLE, voiced } from "./furigana-align";
import { joined, pos, type Token } from "./furigana-token";

/**
 * Words written half in kana (交ぜ書き), as lower-grade texts write a word whose kanji the class has not learned yet:
 * 家ぞく, 体いくかん, 市やく所, 名まえ, 音どく, 一しょに. The analyser reads the kanji left as a word of its own (家 いえ,
 * 体 からだ, 所 ところ, 名 めい, 一 いち); the word they belong to reads them か, たい, しょ, な, いっ. A noun or a number in
 * kanji with kana after it (two to six, at the analyser's word boundaries or inside a word of kana it does not know,
 * or one after one kanji before a case particle or の: 日きを) is tried as such a word: each way of reading the kana as
 * one or two kanji (by their readings, 常用漢字 only, voiced or cut short as in compounds: ぱつ for 発, がっ for 学)
 * makes a spelling, and a spelling the dictionary holds as one common word whose reading is a reading of the kanji
 * shown, then exactly the kana (家族 かぞく: か + ぞく), joins the words into one, read so; failing that, with the
 * last kana as one hidden kanji's okurigana (上ばき 上履き, 大いそぎ 大急ぎ). Kana that are a particle or a suffix are
 * never tried (山がある, 愛犬家さん; a "particle" cut off before a small kana is none: 牛に|ゅう, nor ば after a noun,
 * where no conditional can be: 上ば|き), nor kana before a kanji (よう虫): in texts of kana they are as often a word
 * of their own (きょう雨, もう目).
 */
export interface MixedDictionary {
  /** the kanji read `reading` (hiragana, a kun reading without its okurigana) */
  kanjiRead(reading: string): string;
  /** the readings of `kanji` (hiragana, kun readings without their okurigana) */
  readingsOf(kanji: string): string[];
  /** the readings (hiragana) of `surface` as one common word of the dictionary; none when it holds no such word */
  wordReadings(surface: string): string[];
}

const KANJI = /^[\p{Script=Han}々]+$/u;
const PARTICLE = /^[をにがはでとのへもやか]$/;
const MIN_KANA = 2;
const MAX_KANA = 6;

/** A noun, a number or a prefix in kanji: what a mixed word starts or ends with (名まえ: 名 as a prefix; 一しょ 一緒). */
const isKanji = (t: Token | undefined): boolean => !!t && KANJI.test(t.surface) && (pos(t, "名詞") || pos(t, "接頭詞"));
/**
 * Kana right after a noun that may be a kanji written in kana: not a particle (山がある, 中から; but ぞ, which the
 * analyser takes for one in 家ぞく) and not a suffix (私ども, 愛犬家さん).
 */
const startsHidden = (t: Token) =>
  !PARTICLE.test(t.surface) &&
  (!pos(t, "名詞,接尾") || pos(t, "名詞,接尾,助動詞語幹")) &&
  (!pos(t, "助詞") || t.surface === "ぞ" || t.surface === "ば");
const inKana = (t: Token | undefined): t is Token => !!t && isHiragana(t.surface);

/** The readings `piece` may be the changed form of, as a kanji's reading inside a compound: ぱつ ← はつ, がっ ← がく. */
function plainForms(piece: string): string[] {
  const first = piece[0]!;
  // a voiced kana follows its plain one (が after か), a half-voiced one two on (ぱ after は)
  const back = (n: number) => String.fromCharCode(first.charCodeAt(0) - n);
  const heads = [
    first,
    ...(VOICEABLE.test(back(1)) ? [back(1)] : []),
    ...(HALF_VOICEABLE.test(back(2)) ? [back(2)] : []),
  ];
  const tails = piece.endsWith("っ") ? ["つ", "く", "ち", "き"].map((k) => piece.slice(1, -1) + k) : [piece.slice(1)];
  return heads.flatMap((h) => tails.map((t) => h + t));
}

/**
 * The spellings of `kana` as one kanji, or as two when it has three kana or more, the first MAX_SPELLINGS: かんこう
 * alone may be thousands (47 kanji read かん, 76 read こう), and a word written half in kana has common ones.
 */
const MAX_SPELLINGS = 150;
/** spellings by kana for each dictionary (the server makes one a text): a text repeats its words */
const spelled = new WeakMap<MixedDictionary, Map<string, string[]>>();
function spellings(kana: string, dictionary: MixedDictionary): string[] {
  const known = spelled.get(dictionary) ?? new Map<string, string[]>();
  spelled.set(dictionary, known);
  let out = known.get(kana);
  if (!out) {
    out = spell(kana, dictionary);
    if (known.size < 10_000) known.set(kana, out);
  }
  return out;
}
function spell(kana: string, dictionary: MixedDictionary): string[] {
  const one = (piece: string) => [...new Set(plainForms(piece).flatMap((p) => [...dictionary.kanjiRead(p)]))];
  const out = one(kana);
  for (let cut = 1; cut < kana.length && kana.length > 2; cut++) {
    const second = one(kana.slice(cut));
    const first = second.length > 0 ? one(kana.slice(0, cut)) : [];
    // the pairs of the most used kanji first: by the sum of their places in the two lists
    for (let sum = 0; sum <= first.length + second.length - 2; sum++)
      for (let i = Math.max(0, sum - second.length + 1); i <= Math.min(sum, first.length - 1); i++) {
        if (out.length >= MAX_SPELLINGS) return out;
        out.push(first[i]! + second[sum - i]!);
      }
  }
  return out;
}

/** The readings a kanji word shown beside the kana may have inside the word: its own, voiced or cut short. */
function shownReadings(t: Token | undefined, dictionary: MixedDictionary): Set<string> {
  if (!t) return new Set([""]);
  const own = [...t.surface].length === 1 ? dictionary.readingsOf(t.surface) : [];
  const readings = new Set(t.reading ? [toHiragana(t.reading), ...own] : own);
  for (const r of [...readings]) {
    if (VOICEABLE.test(r)) readings.add(voiced(r) + r.slice(1));
    if (HALF_VOICEABLE.test(r)) readings.add(halfVoiced(r) + r.slice(1));
    if (/[つくちき]$/.test(r)) readings.add(r.slice(0, -1) + "っ");
  }
  return readings;
}

/** Whether `reading` is a reading of the shown head, then exactly `kana` (the hidden kanji), then of the shown tail. */
function fits(reading: string, kana: string, head: Set<string>, tail: Set<string>): boolean {
  for (let at = reading.indexOf(kana); at >= 0; at = reading.indexOf(kana, at + 1))
    if (head.has(reading.slice(0, at)) && tail.has(reading.slice(at + kana.length))) return true;
  return false;
}

/** The mixed word of `kana` (from word `first` on) after `head` (and before `tail`, if any) as one word, or null. */
function mixedWord(
  head: Token,
  kana: string,
  first: Token,
  tail: Token | undefined,
  dictionary: MixedDictionary,
): Token | null {
  const [headReadings, tailReadings] = [shownReadings(head, dictionary), shownReadings(tail, dictionary)];
  const found = new Set<string>();
  for (const hidden of spellings(kana, dictionary)) {
    const word = head.surface + hidden + (tail?.surface ?? "");
    for (const r of dictionary.wordReadings(word)) if (fits(r, kana, headReadings, tailReadings)) found.add(r);
  }
  // else the last kana may be one hidden kanji's okurigana (上ばき 上履き), when no kanji follows
  const okuri = kana.at(-1)!;
  if (found.size === 0 && !tail && kana.length >= 2 && kana.length <= 4 && !PARTICLE.test(okuri))
    for (const hidden of spellings(kana.slice(0, -1), dictionary).filter((h) => [...h].length === 1))
      for (const r of dictionary.wordReadings(head.surface + hidden + okuri))
        if (fits(r, kana, headReadings, tailReadings)) found.add(r);
  if (found.size === 0) return null;
  // of several, the one that keeps most of the analyser's reading of the kanji shown (人まえ ひとまえ, not にんまえ;
  // 十かい じゅっかい, not じっかい), the first of those
  const own = head.reading ? toHiragana(head.reading) : "";
  const kept = (r: string) => {
    let k = 0;
    while (k < r.length && r[k] === own[k]) k++;
    return k;
  };
  const reading = [...found].reduce((best, r) => (kept(r) > kept(best) ? r : best));
  // そう after a noun is as often the analyser's 様態 cut from an adjective (強そう) as a kanji (体そう 体操)
  const unsure = found.size > 1 || pos(first, "名詞,接尾,助動詞語幹");
  return {
    start: head.start,
    surface: `${head.surface}${kana}${tail?.surface ?? ""}`,
    reading: toKatakana(reading),
    pos: "名詞,一般",
    ...(unsure ? { guess: true } : {}),
  };
}

/** The first kana of a particle, the copula or a form of する: what may follow a word. */
const WORD_AFTER = /^[だでなすしさせのがをにはともへや]/;

/**
 * Whether a word may end with word `last`: what follows is not kana joined to it, or a particle, or kana that start
 * one, the copula (だ, で, な, です) or a form of する (家ぞくで, 音がくの, 図かんです, 出ぱつする); not the rest of a
 * word (砂ぼう|ず, a name). Known by the first kana, not by the analyser's tag: it cuts kana it does not know as it can.
 */
function endsWord(tokens: Token[], last: number): boolean {
  const next = tokens[last + 1];
  return !inKana(next) || !joined(tokens[last], next) || pos(next, "助詞") || WORD_AFTER.test(next.surface);
}

/** A word of kana no word starts (ゅう, ょう): the analyser cut a kana before it off as a particle (牛に|ゅう, 牛乳). */
const SMALL_START = /^[ぁぃぅぇぉゃゅょゎ]/;

/**
 * The words of kana joined after `at`, in order, up to MAX_KANA kana (a word the analyser does not know may reach past
 * them: its start is tried), the first not a particle unless the next word starts with a small kana (牛に|ゅう).
 */
function kanaAfter(tokens: Token[], at: number): Token[] {
  const out: Token[] = [];
  let length = 0;
  for (let i = at + 1; i < tokens.length && inKana(tokens[i]) && joined(tokens[i - 1], tokens[i]); i++) {
    const cutOff = joined(tokens[i], tokens[i + 1]) && SMALL_START.test(tokens[i + 1]!.surface);
    if (out.length === 0 && !startsHidden(tokens[i]!) && !cutOff) break;
    length += tokens[i]!.surface.length;
    if (length > MAX_KANA && !tokens[i]!.unknown) break;
    out.push(tokens[i]!);
    if (length >= MAX_KANA) break;
  }
  return out;
}

/**
 * A stretch of the kana after a noun: the words it covers and how many kana of the last it takes, all of them, or
 * the start of a word the analyser does not know (牛に|ゅうをのむ: にゅう, then をのむ).
 */
type Stretch = { words: Token[]; used: number };

/** The stretches of `kana` (kanaAfter's words), longest first, up to MAX_KANA kana. */
function* stretches(kana: Token[]): Generator<Stretch> {
  let before = kana.reduce((sum, w) => sum + w.surface.length, 0);
  for (let n = kana.length; n > 0; n--) {
    const last = kana[n - 1]!;
    before -= last.surface.length;
    const longest = Math.min(last.surface.length, MAX_KANA - before);
    const shortest = last.unknown ? 1 : last.surface.length;
    for (let used = longest; used >= shortest; used--) yield { words: kana.slice(0, n), used };
  }
}

/** The kana a stretch covers, and what is left of its last word (empty when it takes it whole). */
function stretchText({ words, used }: Stretch): { kana: string; rest: string } {
  const last = words.at(-1)!.surface;
  const whole = words.slice(0, -1).map((w) => w.surface);
  return { kana: whole.join("") + last.slice(0, used), rest: last.slice(used) };
}

/**
 * Whether noun `i` may start a word written half in kana: not after kana that are part of a word (もん白ちょう, a
 * butterfly, not 白鳥), not the last numeral of a number (二|十さい: the counters' rules read 二十), and not a noun of
 * する before its forms (発表しよう: the kana are the verb's, not a kanji's).
 */
function startsMixed(tokens: Token[], i: number): boolean {
  const [t, before, after] = [tokens[i], tokens[i - 1], tokens[i + 1]];
  if (!isKanji(t) || !inKana(after) || !joined(t, after)) return false;
  if (pos(t, "名詞,数") && pos(before, "名詞,数") && joined(before, t!)) return false;
  if (inKana(before) && joined(before, t!) && !pos(before, "助詞") && !pos(before, "助動詞") && !pos(before, "連体詞"))
    return false;
  return !(pos(t, "名詞,サ変接続") && pos(after, "動詞") && /^[しさすせ]/.test(after.surface));
}

/** One kana after one kanji, then a case particle or の: 日きを, 事こに, 国ごの (日記, 事故, 国語). */
const oneKanaWord = (head: Token, next: Token | undefined) =>
  [...head.surface].length === 1 &&
  (pos(next, "助詞,格助詞") || pos(next, "助詞,連体化")) &&
  PARTICLE.test(next!.surface);

/**
 * The longest mixed word of noun `i` and the kana after it (and a noun after them: 市やく所), with what is left of a word
 * it took the start of (牛に|ゅうをのむ: をのむ) and the index after them.
 */
function kanjiThenKana(tokens: Token[], i: number, dictionary: MixedDictionary) {
  const head = tokens[i]!;
  for (const stretch of stretches(kanaAfter(tokens, i))) {
    const n = stretch.words.length;
    const { kana, rest } = stretchText(stretch);
    const next = tokens[i + n + 1];
    if (kana.length < MIN_KANA && !(rest === "" && oneKanaWord(head, next))) break;
    const last = stretch.words[n - 1]!;
    const tail = rest === "" && isKanji(next) && joined(last, next) ? next : undefined;
    const withTail = tail && mixedWord(head, kana, stretch.words[0]!, tail, dictionary);
    if (withTail) return { tokens: [withTail], next: i + n + 2 };
    const ends = rest === "" ? endsWord(tokens, i + n) : WORD_AFTER.test(rest);
    const found = ends && mixedWord(head, kana, stretch.words[0]!, undefined, dictionary);
    if (!found) continue;
    // what is left of a word the analyser does not know: kana, of no part of speech it could tell
    const left: Token = { start: last.start + stretch.used, surface: rest, reading: null, unknown: true };
    return { tokens: rest === "" ? [found] : [found, left], next: i + n + 1 };
  }
  return null;
}

/** The analyser's words with each word written half in kana joined into one word, read as the dictionary's. */
export function joinMixedWords(tokens: Token[], dictionary: MixedDictionary): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < tokens.length) {
    const found = startsMixed(tokens, i) ? kanjiThenKana(tokens, i, dictionary) : null;
    if (!found) {
      out.push(tokens[i++]!);
      continue;
    }
    out.push(...found.tokens);
    i = found.next;
  }
  return out;
}
