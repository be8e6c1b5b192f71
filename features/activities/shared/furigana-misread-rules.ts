import { contentNoun, joined, pos, type Token, type WordRule } from "./furigana-token";

/** The end of a verb's stem: a kanji and one kana (飲み, 雪解け). */
const STEM_END = /\p{Script=Han}\p{Script=Hiragana}$/u;

/**
 * Words the analyser cuts wrong, takes for a name, or reads wrong wherever they stand (the rules of
 * furigana-word-rules.ts call these for every word no rule of theirs read):
 * - words the analyser cut or took for a name: 雄 alone おす (雄の体), 河原 かわら (河原さん stays), 吉 alone きち,
 *   右腕 みぎうで (右腕投手 stays うわん), 一つ上 うえ and 一つ下 した, 法の下 もと, 籠もる こ, 力尽く ずく, その間
 *   and この間 あいだ, 替え after a verb かえ (架け替え), 仕掛け after a noun じかけ, 化け ば (文字化け), 水 after a
 *   verb's stem みず (飲み水), 何分 なんぷん (何分かかりますか; 何分にも stays), 端 はし (the spoken はじ), 日 before a
 *   noun in kana ひ (日かげ), 憂い うれい, 計らい はか, 関らず かかわ, 雨 after a time あめ (一日中雨だった), 中風
 *   after a time じゅうかぜ (一日中風が強い), 球の体積 きゅう, a grammatical form's 形 けい
 *   (三人称単数現在形), 小 before a word in kana こ (小ぎつね);
 * - words the dictionary reads wrong wherever they stand (SLIPS): 男達 おとこたち, 堪能 たんのう, 蓮根 れんこん, 扇形
 *   おうぎがた, 空所 くうしょ, 木の下 きのした (the old このした), 夜中 よなか (the rare やちゅう); and a polygon as the
 *   textbooks read it, 三角形 さんかくけい (the dictionary's さんかっけい).
 */

/** The end of a time or a stretch of time (一日中, 三日間, 毎日, 一晩). */
const AFTER_A_TIME = /[日中間週月年朝晩夜]$/u;

/** The grammatical forms of 国語 and 英語, before 形 けい (現在形, 命令形). */
const GRAMMAR_FORMS = new Set([
  "現在",
  "過去",
  "未来",
  "命令",
  "進行",
  "完了",
  "複数",
  "単数",
  "終止",
  "連用",
  "連体",
  "未然",
  "仮定",
  "基本",
  "原",
]);

/** What a math text measures of a sphere, after 球の. */
const SPHERE_MEASURES = new Set(["体積", "表面積", "半径", "直径", "中心"]);

/** What one acts under, before の and 下 もと (法の下の平等, 指導の下で). */
const UNDER = new Set([
  "法",
  "指導",
  "支配",
  "管理",
  "監督",
  "協力",
  "条件",
  "名",
  "旗",
  "約束",
  "前提",
  "仮定",
  "方針",
  "原則",
  "命令",
  "保護",
  "援助",
  "責任",
  "統治",
  "体制",
  "制度",
]);

/** A count in native numbers before the word (一つ上, 二つ下, ひとつ上). */
const countedInTsu = (t: Token, before: Token | undefined) =>
  pos(t, "名詞,接尾") && joined(before, t) && before.surface.endsWith("つ") && before.surface.length <= 3;
/** Meanwhile, the other day (その間に, この間の話): あいだ, where the dictionary has the formal そのかん. */
const meanwhile = (t: Token) =>
  /^[そこあ]の間$/.test(t.surface) && t.reading?.endsWith("カン") ? t.reading.slice(0, -2) + "アイダ" : null;

/**
 * Words the dictionary reads wrong wherever they stand: the dictionary's reading, and the right one (男達 is men,
 * おとこたち, not the old おとこだて; 堪能 たんのう; 蓮根 れんこん, where the analyser took a place, はすね; 和太鼓
 * わだいこ, voiced as every 太鼓 after a word is; 木の下 きのした, where the dictionary has the poems' このした; 扇形
 * as the math textbooks read it, おうぎがた; 空所 くうしょ, the blank of an English test, where the analyser took a
 * name).
 */
const SLIPS: Record<string, [string, string]> = {
  男達: ["オトコダテ", "おとこたち"],
  堪能: ["カンノウ", "たんのう"],
  蓮根: ["ハスネ", "れんこん"],
  和太鼓: ["ワタイコ", "わだいこ"],
  木の下: ["コノシタ", "きのした"],
  扇形: ["センケイ", "おうぎがた"],
  空所: ["アキショ", "くうしょ"],
  夜中: ["ヤチュウ", "よなか"],
};
const slip = (t: Token) => (SLIPS[t.surface]?.[0] === t.reading ? SLIPS[t.surface]![1] : null);

/**
 * A polygon as the math textbooks read it, かくけい (三角形 さんかくけい, 正六角形 せいろっかくけい, 直角三角形), where the
 * dictionary has the spoken かっけい; a number and 角形 in two words are a counter (furigana-counters.ts: 八角形).
 */
const polygon = (t: Token) =>
  t.surface.endsWith("角形") && t.reading?.endsWith("カッケイ") ? t.reading.slice(0, -4) + "カクケイ" : null;

const MISREADS: Record<string, WordRule> = {
  // small, before a word in kana (小ぎつね, 小えだ): the analyser's prefix or suffix しょう is a kanji word's (小テスト
  // and 小の月 stay)
  小: (t, _before, after) =>
    t.reading === "ショウ" &&
    joined(t, after) &&
    /^\p{Script=Hiragana}/u.test(after!.surface) &&
    !pos(after, "助詞") &&
    !pos(after, "助動詞")
      ? "こ"
      : null,
  // a male animal standing alone (雄の体): the dictionary's ゆう is the suffix of 英雄 and 雄大
  雄: (t, before, after) =>
    t.reading === "ユウ" &&
    !(joined(before, t) && /\p{Script=Han}$/u.test(before.surface)) &&
    !(joined(t, after) && /^\p{Script=Han}/u.test(after!.surface))
      ? "おす"
      : null,
  // a riverbed (川の河原では), where the analyser took a family name (河原さん stays かわはら)
  河原: (t, _before, after) => (t.reading === "カワハラ" && !pos(after, "名詞,接尾") ? "かわら" : null),
  // one's right arm (右腕を上げる); a right-handed pitcher is うわん (右腕投手)
  右腕: (t, _before, after) =>
    t.reading === "ウワン" && !(joined(t, after) && contentNoun(after!)) ? "みぎうで" : null,
  // a year above or below (一つ上の学年, 二つ下): the analyser's suffixes じょう and か
  上: (t, before) => (t.reading === "ジョウ" && countedInTsu(t, before) ? "うえ" : null),
  // and under a rule or a guide (法の下の平等, 指導の下で, 同じ条件の下で もと; 机の下に stays した)
  下: (t, before, after, _then, earlier) => {
    if (t.reading === "カ" && countedInTsu(t, before)) return "した";
    return t.reading === "シタ" &&
      before?.surface === "の" &&
      UNDER.has(earlier?.surface ?? "") &&
      /^(で|に|の)$/.test(after?.surface ?? "")
      ? "もと"
      : null;
  },
  // 替え after a verb is not voiced (架け替え かけかえ, 入れ替え); after a noun it is (衣替え ころもがえ)
  替え: (t, before) => (t.reading === "ガエ" && pos(before, "動詞") && joined(before, t) ? "かえ" : null),
  // a mechanism after a noun, voiced (ばね仕掛け, 時計仕掛け じかけ)
  仕掛け: (t, before) => (t.reading === "シカケ" && joined(before, t) && contentNoun(before) ? "じかけ" : null),
  // good luck (吉とされる), where the analyser took a name (よし); 吉さん stays
  吉: (t, before, after) =>
    t.reading === "ヨシ" &&
    !(joined(before, t) && /\p{Script=Han}$/u.test(before.surface)) &&
    /^(助詞|助動詞|記号)/.test(after?.pos ?? "記号")
      ? "きち"
      : null,
  // by force (力尽くで), where the analyser read the adverb 尽く ことごとく
  尽く: (t, before) => (t.reading === "コトゴトク" && joined(before, t) && before.surface === "力" ? "ずく" : null),
  // 籠もる, cut 籠|もる or 籠|も|る by the analyser (a basket, かご; 籠もある stays)
  籠: (t, _before, after, then) =>
    t.reading === "カゴ" &&
    joined(t, after) &&
    after!.surface.startsWith("も") &&
    (pos(after, "動詞") || (joined(after, then) && /^[らりるれろっ]/.test(then!.surface)))
      ? "こ"
      : null,
  // water after a verb's stem, a kanji and one kana (飲み水 のみみず, 雪解け水): the analyser's suffix すい is a kanji
  // compound's (地下水, 炭酸水) and a kana word's (石けん水)
  水: (t, before) =>
    t.reading === "スイ" && pos(t, "名詞,接尾") && joined(before, t) && STEM_END.test(before.surface) ? "みず" : null,
  // how many minutes (何分かかりますか), where the analyser read the adverb なにぶん (何分にも, 何分、初めてなので
  // stay); a fraction's 何分の何 is なんぶん
  何分: (t, _before, after, then) => {
    if (t.reading !== "ナニブン" || (after?.surface === "に" && then?.surface === "も") || pos(after, "記号"))
      return null;
    return after?.surface === "の" ? "なんぶん" : "なんぷん";
  },
  // 化ける after a noun (文字化け もじばけ), where the analyser took the suffix か and a verb けす
  化: (t, _before, after) => (t.reading === "カ" && joined(t, after) && after!.surface.startsWith("け") ? "ば" : null),
  // the sun before a noun in kana (日かげ, 日やけ), where the analyser took 日 for Japan (日米 stays にち)
  日: (t, _before, after) =>
    t.reading === "ニチ" &&
    pos(t, "名詞,固有名詞") &&
    joined(t, after) &&
    pos(after, "名詞") &&
    /^\p{Script=Hiragana}/u.test(after!.surface)
      ? "ひ"
      : null,
  // a sphere in math (球の体積, 球の表面積), where the analyser has a ball, たま
  球: (t, _before, after, then) =>
    t.reading === "タマ" && after?.surface === "の" && SPHERE_MEASURES.has(then?.surface ?? "") ? "きゅう" : null,
  // a grammatical form after a word the analyser cut it from (三人称単数現在形 けい; ハート形 stays がた)
  形: (t, before) => (t.reading === "ガタ" && joined(before, t) && GRAMMAR_FORMS.has(before.surface) ? "けい" : null),
  // the edge of a thing (紙の端, 端から端まで), where the analyser has the spoken はじ
  端: (t) => (t.reading === "ハジ" ? "はし" : null),
  // sorrow, and 憂う's て-form (憂いを帯びた, 憂いている), where the analyser has the old adjective うい
  憂い: (t) => (t.reading === "ウイ" ? "うれい" : null),
  // 計らう (義父の計らいで), where the analyser took the prefix けい of 計三冊
  計: (t, _before, after) =>
    t.reading === "ケイ" && pos(t, "接頭詞") && joined(t, after) && after!.surface.startsWith("ら") ? "はか" : null,
  // 関わる written 関る (にも関らず, 関らない, 関った), where the analyser took the family name せき
  関: (t, _before, after, then) =>
    t.reading === "セキ" &&
    joined(t, after) &&
    ((after!.surface === "ら" && joined(after, then) && /^(ず|な)/.test(then!.surface)) ||
      (after!.surface === "っ" && pos(after, "動詞")))
      ? "かかわ"
      : null,
  // rain after a time (一日中雨だった, 三日間雨が続いた), where the analyser took the suffix う of 酸性雨
  雨: (t, before) =>
    t.reading === "ウ" && pos(t, "名詞,接尾") && joined(before, t) && AFTER_A_TIME.test(before.surface) ? "あめ" : null,
  // all through a time, then the wind (一日中風が強い, 一晩中風が吹いた), where the analyser read 中風 ちゅうぶ, a palsy
  中風: (t, before) =>
    t.reading === "チュウブ" && joined(before, t) && AFTER_A_TIME.test(before.surface) ? "じゅうかぜ" : null,
};

/** The reading of the rules of this file for `t`, or null. */
export const misread: WordRule = (t, before, after, then, earlier) =>
  MISREADS[t.surface]?.(t, before, after, then, earlier) ?? slip(t) ?? polygon(t) ?? meanwhile(t);
