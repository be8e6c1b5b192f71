import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { joinLexiconWords, type Lexicon } from "@/features/activities/shared/furigana-lexicon-rules";
import { proposeFurigana, type Token } from "@/features/activities/shared/furigana-propose";
import { joinMixedWords, type MixedDictionary } from "@/features/activities/shared/furigana-mixed-rules";
import {
  KANJI_READINGS_FILE,
  LEXICON_FILE,
  loadKanjiReadings,
  loadLexicon,
} from "@/features/activities/server/furigana-lexicon";
import { tokenizeMarkup } from "@/features/activities/server/furigana-tokenizer";

/** Words at their offsets, one after the other, as the analyser gives them. */
function words(...parts: [string, string | null, string?][]): Token[] {
  let at = 0;
  return parts.map(([surface, reading, pos = "名詞,一般"]) => {
    const t: Token = { start: at, surface, reading, pos, unknown: reading === null };
    at += surface.length;
    return t;
  });
}
const lexiconOf = (entries: Record<string, [string[], string?]>): Lexicon => ({
  word: (surface) => entries[surface] && { readings: entries[surface][0], common: entries[surface][1] ?? null },
  hasPrefix: (prefix) => Object.keys(entries).some((w) => w.startsWith(prefix)),
});
const shown = (tokens: Token[]) => tokens.map((t) => `${t.surface}=${t.reading ?? "-"}${t.guess ? "?" : ""}`);

describe("the second dictionary joins the compounds the analyser cut", () => {
  const lexicon = lexiconOf({
    七輪: [["しちりん"]],
    豚足: [["とんそく"]],
    日本刀: [["にっぽんとう", "にほんとう"], "にほんとう"],
    身体: [["からだ", "しんたい"]],
    雹: [["ひょう"]],
    小坐骨: [["しょうざこつ"]],
    小坐骨切痕: [["しょうざこつせっこん"]],
  });

  it("reads a cut compound as the one word it is, with the lexicon's reading", () => {
    expect(shown(joinLexiconWords(words(["七", "ナナ"], ["輪", "リン"], ["で", "デ", "助詞"]), lexicon))).toEqual([
      "七輪=シチリン",
      "で=デ",
    ]);
  });

  it("keeps the analyser's words where it already reads the compound as the lexicon does", () => {
    const tokens = words(["豚", "トン"], ["足", "ソク"]);
    expect(joinLexiconWords(tokens, lexicon)).toEqual(tokens);
  });

  it("of several readings takes the common one, or else the first, marked for the teacher to check", () => {
    expect(shown(joinLexiconWords(words(["日本", "ニッポン"], ["刀", "カタナ"]), lexicon))).toEqual([
      "日本刀=ニホントウ?",
    ]);
    expect(shown(joinLexiconWords(words(["身", "ミ"], ["体", "カラダ"]), lexicon))).toEqual(["身体=カラダ?"]);
    // the analyser's own reading among them: its words stay
    const cut = words(["身", "シン"], ["体", "タイ"]);
    expect(joinLexiconWords(cut, lexicon)).toEqual(cut);
  });

  it("leaves a stretch it holds and the analyser already reads whole: no shorter word inside it is joined", () => {
    const both = lexiconOf({ 豚足: [["とんそく"]], 足骨: [["そっこつ"]], 豚足骨: [["とんそくこつ"]] });
    const tokens = words(["豚", "ブタ"], ["足", "ソク"], ["骨", "コツ"]);
    expect(joinLexiconWords(words(["豚", "トン"], ["足", "ソク"], ["骨", "コツ"]), both)).toEqual(
      words(["豚", "トン"], ["足", "ソク"], ["骨", "コツ"]),
    );
    expect(shown(joinLexiconWords(tokens, both))).toEqual(["豚足骨=トンソクコツ"]);
  });

  it("never cuts a number, and leaves numbers and counters to the rules", () => {
    const dates = lexiconOf({
      十日: [["とおか"]],
      七日: [["なのか"]],
      一分: [["いちぶ", "いっぷん"], "いちぶ"],
      三百: [["さんびゃく"]],
    });
    const number = (surface: string, reading: string): [string, string, string] => [surface, reading, "名詞,数"];
    // 三|十|日: 十日 starts inside the number 三十
    const thirtieth = words(number("三", "サン"), number("十", "ジュウ"), ["日", "ニチ", "名詞,接尾,助数詞"]);
    expect(joinLexiconWords(thirtieth, dates)).toEqual(thirtieth);
    // 二十|七|日: 七日 starts inside 二十七
    const twentySeventh = words(number("二十", "ニジュウ"), number("七", "ナナ"), ["日", "ニチ", "名詞,接尾,助数詞"]);
    expect(joinLexiconWords(twentySeventh, dates)).toEqual(twentySeventh);
    // 三百|六: 三百 ends inside 三百六
    const three = words(number("三", "サン"), number("百", "ヒャク"), number("六", "ロク"));
    expect(joinLexiconWords(three, dates)).toEqual(three);
    // 一|分: a number's word with several readings stays with the counter rules, and nothing is marked
    const minute = words(number("一", "イチ"), ["分", "フン", "名詞,接尾,助数詞"]);
    expect(joinLexiconWords(minute, dates)).toEqual(minute);
    // 十|日 alone is the word the lexicon reads one way
    expect(shown(joinLexiconWords(words(number("十", "ジュウ"), ["日", "ニチ", "名詞,接尾,助数詞"]), dates))).toEqual([
      "十日=トオカ",
    ]);
  });

  it("looks up one word alone only when the analyser did not know it", () => {
    expect(shown(joinLexiconWords(words(["雹", null]), lexicon))).toEqual(["雹=ヒョウ"]);
    expect(shown(joinLexiconWords(words(["雹", "アラレ"]), lexicon))).toEqual(["雹=アラレ"]);
  });

  it("joins the longest stretch first, and never across kana or a gap", () => {
    expect(
      shown(joinLexiconWords(words(["小", "ショウ"], ["坐骨", "ザコツ"], ["切", "キリ"], ["痕", "アト"]), lexicon)),
    ).toEqual(["小坐骨切痕=ショウザコツセッコン"]);
    expect(shown(joinLexiconWords(words(["七", "ナナ"], ["の", "ノ", "助詞"], ["輪", "ワ"]), lexicon))).toEqual([
      "七=ナナ",
      "の=ノ",
      "輪=ワ",
    ]);
    const apart: Token[] = [
      { start: 0, surface: "七", reading: "ナナ", pos: "名詞,数" },
      { start: 2, surface: "輪", reading: "ワ", pos: "名詞,一般" },
    ];
    expect(joinLexiconWords(apart, lexicon)).toEqual(apart);
  });
});

describe("the second dictionary on a long run of kanji", () => {
  it("asks it a few times a word, not once for every stretch of the run", () => {
    // 128 kanji the analyser read one by one (a chunk's most): every stretch would be 8,000 lookups
    const run = words(...Array.from({ length: 128 }, (_, i): [string, string] => ["七輪漢字"[i % 4]!, "カ"]));
    const inner = lexiconOf({ 七輪: [["しちりん"]], 漢字: [["かんじ"]] });
    let lookups = 0;
    const counted: Lexicon = {
      word: (w) => (lookups++, inner.word(w)),
      hasPrefix: (p) => (lookups++, inner.hasPrefix(p)),
    };
    expect(shown(joinLexiconWords(run, counted)).slice(0, 2)).toEqual(["七輪=シチリン", "漢字=カンジ"]);
    expect(lookups).toBeLessThanOrEqual(3 * run.length);
  });
});

describe("the second dictionary in the proposals", () => {
  const readingsOf = async (text: string) =>
    proposeFurigana(text, await tokenizeMarkup(text)).map((p) => `${p.base}=${p.reading}${p.check ? "?" : ""}`);

  it("proposes the compound's reading where the analyser alone read its kanji apart", async () => {
    expect(await readingsOf("七輪で魚を焼く。")).toEqual(["七輪=しちりん", "魚=さかな", "焼=や"]);
    expect(await readingsOf("豚足と豚骨のスープ")).toEqual(["豚足=とんそく", "豚骨=とんこつ"]);
    expect(await readingsOf("日本刀を見た。")).toEqual(["日本刀=にほんとう?", "見=み"]);
    // where the rules read a part of such a compound from its neighbours, the second dictionary reads the whole
    for (const [text, whole] of [
      ["殺人鬼が", "殺人鬼=さつじんき"],
      ["石油会社", "石油会社=せきゆがいしゃ"],
      ["犬小屋", "犬小屋=いぬごや"],
      ["二卵性の双子", "二卵性=にらんせい"],
      ["平滑筋細胞", "平滑筋=へいかつきん"],
      ["鶏小屋", "鶏小屋=とりごや?"],
      ["腹直筋", "腹直筋=ふくちょくきん?"],
    ] as const)
      expect(await readingsOf(text)).toContain(whole);
    // numbers stay with their rules, unmarked: 三百|六十五 is one number, not the lexicon's 三百 and a number after it
    for (const [text, expected] of [
      ["三百六十五", ["三百六十五=さんびゃくろくじゅうご"]],
      ["三十日", ["三十日=さんじゅうにち"]],
      ["五月二十七日に", ["五月=ごがつ", "二十七日=にじゅうななにち"]],
      ["三十九日", ["三十九日=さんじゅうきゅうにち"]],
      ["一分待つ", ["一分=いっぷん", "待=ま"]],
      ["四人で", ["四人=よにん"]],
      ["四時に", ["四時=よじ"]],
      ["一日中", ["一日中=いちにちじゅう"]],
    ] as const)
      expect(await readingsOf(text)).toEqual(expected);
  });

  it("ships as a file of the app, sorted, every reading kana", async () => {
    const lines = gunzipSync(readFileSync(LEXICON_FILE)).toString("utf8").split("\n").slice(0, -1);
    expect(lines.length).toBeGreaterThan(70_000);
    const keys = lines.map((l) => l.split("\t")[0]!);
    expect(keys.every((k, i) => i === 0 || keys[i - 1]! < k)).toBe(true);
    expect(lines.every((l) => /^[^\t]+\t[\u3041-\u3096ー]+( [\u3041-\u3096ー]+)*\t[\u3041-\u3096ー]*$/u.test(l))).toBe(
      true,
    );
    const lexicon = await loadLexicon();
    expect(lexicon.word(keys[0]!)).toBeDefined();
    expect(lexicon.word(keys.at(-1)!)).toBeDefined();
    expect(lexicon.word("七輪")).toEqual({ readings: ["しちりん"], common: null });
    expect(lexicon.word("学校")).toBeUndefined();
    expect(lexicon.word("七")).toBeUndefined();
    expect([lexicon.hasPrefix("七"), lexicon.hasPrefix("七輪"), lexicon.hasPrefix("七輪学")]).toEqual([
      true,
      true,
      false,
    ]);
    expect([lexicon.hasPrefix(keys.at(-1)!), lexicon.hasPrefix("\uffff")]).toEqual([true, false]);
  });
});

describe("words written half in kana (交ぜ書き) joined into the word they write", () => {
  const mixed: MixedDictionary = {
    kanjiRead: (reading) => ({ ぞく: "続族", かん: "間館", いく: "育", やく: "約役", よう: "用曜幼" })[reading] ?? "",
    readingsOf: (kanji) => ({ 家: ["か", "け", "いえ"], 所: ["しょ", "ところ"], 虫: ["ちゅう", "むし"] })[kanji] ?? [],
    wordReadings: (surface) =>
      ({
        家族: ["かぞく"],
        体育館: ["たいいくかん"],
        市役所: ["しやくしょ"],
        幼虫: ["ようちゅう"],
        // 家続 いえつづき: its reading has no ぞく where the kana are, so 家ぞく is 家族 alone
        家続: ["いえつづき"],
      })[surface] ?? [],
  };

  it("joins a noun and the kana of the kanji left out, read as the word the dictionary holds", () => {
    expect(
      shown(
        joinMixedWords(
          words(["家", "イエ"], ["ぞ", "ゾ", "助詞,係助詞"], ["く", "ク", "動詞,非自立"], ["で", "デ", "助詞"]),
          mixed,
        ),
      ),
    ).toEqual(["家ぞく=カゾク", "で=デ"]);
    expect(
      shown(joinMixedWords(words(["市", "シ"], ["やく", "ヤク", "動詞,自立"], ["所", "トコロ", "名詞,非自立"]), mixed)),
    ).toEqual(["市やく所=シヤクショ"]);
  });

  it("needs the kanji shown to keep one of its readings, and the kana to end a word", () => {
    // ぞく goes on (ず): not a word's end; が is a particle; kana before a kanji (よう虫) are never tried: in texts of
    // kana they are words of their own as often (きょう雨, もう目)
    expect(shown(joinMixedWords(words(["家", "イエ"], ["ぞく", "ゾク"], ["ず", "ズ", "助動詞"]), mixed))).toEqual([
      "家=イエ",
      "ぞく=ゾク",
      "ず=ズ",
    ]);
    expect(shown(joinMixedWords(words(["家", "イエ"], ["が", "ガ", "助詞"], ["ぞく", "ゾク"]), mixed))).toEqual([
      "家=イエ",
      "が=ガ",
      "ぞく=ゾク",
    ]);
    expect(shown(joinMixedWords(words(["よう", "ヨウ", "名詞,非自立"], ["虫", "ムシ"]), mixed))).toEqual([
      "よう=ヨウ",
      "虫=ムシ",
    ]);
  });

  it("ships its kanji by reading as a file of the app, sorted, kana to 常用漢字", async () => {
    const lines = readFileSync(KANJI_READINGS_FILE, "utf8").split("\n").slice(0, -1);
    expect(lines.length).toBeGreaterThan(1_500);
    const keys = lines.map((l) => l.split("\t")[0]!);
    expect(keys.every((k, i) => i === 0 || keys[i - 1]! < k)).toBe(true);
    expect(lines.every((l) => /^[\u3041-\u3096ー]+\t\p{Script=Han}+$/u.test(l))).toBe(true);
    const { byReading, ofKanji } = await loadKanjiReadings();
    expect(byReading.get("ぞく")).toContain("族");
    expect(ofKanji.get("家")).toEqual(expect.arrayContaining(["か", "いえ"]));
  });
});
