import { compoundReading } from "./furigana-compound-rules";
import { misread } from "./furigana-misread-rules";
import { contentNoun, joined, KATAKANA, LIST_SEPARATOR, pos, type Token, type WordRule } from "./furigana-token";
import { VERBS } from "./furigana-verb-rules";

/**
 * One word read from its neighbours, where the dictionary's own reading is wrong there (the rules of
 * furigana-rules.ts call it for every word that is not a number):
 * - 間 after の, a verb or an adjective is あいだ (夏の間, 泳いでいる間, 長い間), 方 after a verb かた (読み方 as two
 *   words; a comparison, a verb's plain form then 方が, stays ほう: 食べる方がいい), 後 standing alone あと (食べた後),
 *   and 後 at the start of a clause before に のち (後に述べる);
 * - a suffix after a name: 家 け (織田家, ヴァレンシュタイン家; いえ when it stands alone: むしろ家に), 基 き after a
 *   katakana word (カルボニル基), 湖 こ after a noun (インレー湖, ダム湖), 鬼 き after a kanji noun (殺人鬼);
 * - the second noun of a compound the dictionary lacks, voiced as spoken (rendaku): 会社 がいしゃ (石油会社),
 *   小屋 ごや (犬小屋); 筋 after a common noun a muscle, きん (内臓筋; 堺筋 stays すじ);
 * - a kanji read natively inside a Sino-Japanese compound: its on reading (furigana-compound-rules.ts);
 * - a word alone: 他 ほか (他の人: the official kanji table has both ほか and た, the dictionary only た), 語 ご (the
 *   dictionary's かたり is 語り, written with り), 日本 にほん (the dictionary says にっぽん; both are right, にほん
 *   is the one schools teach first), 琴 こと (琴を弾く; the dictionary's きん is the instrument's name in compounds),
 *   辺 へん (この辺, 辺の長さ; the dictionary's あたり is written 辺り), 負 ふ (負の数; まけ is written 負け), 仮名
 *   かな (送り仮名 がな; the dictionary's かめい is a pen name), 百歳 ひゃくさい (the dictionary's ももとせ), and no
 *   reading beginning with づ or ぢ (図形 ずけい) unless it is voiced after a word (米|作り こめづくり);
 * - a word read from the words around it: ある種 しゅ, この種の and その種の しゅ (a kind; この種は stays たね), 年 ねん
 *   before に and a count at a clause's start (年に一回; the dictionary's とし, and 彼の年に stays とし), 的 まと after a
 *   particle (議論の的, で的に; the dictionary's suffix てき), 角 かく before the letters naming an angle (角A, where the
 *   analyser guessed a name すみ) and かど before を, で or に and 曲がる (角を曲がる), 数 すう after 正の, 負の (正の数)
 *   and かず before 多く (数多く), 値 あたい after の and before を求める (xの値, 問題の値自体; 値が上がる stays ね), 米
 *   こめ before 作り and の, で, が, は, も, や, と (米の生産, 米で納める; 米と中国 stays), where the analyser read the
 *   United States (べい), 付 ふ before 点 (付点音符), 逆 さか before 上がり (逆上がり), 色 いろ after a colour in
 *   katakana or a colour's name in hiragana (オレンジ色, むらさき色; the analyser's suffix しょく), 正しく ただしく (the
 *   dictionary's まさしく), 行 alone ぎょう (どの行: the dictionary's くだり is a story's passage), 一行 before 目
 *   いちぎょう (the dictionary's いっこう is a party; 一行 alone stays いっこう, marked: UNDECIDED);
 * - a verb in every form, from the words before it (furigana-verb-rules.ts): 抱 いだ after a feeling (夢を抱く) and だ
 *   otherwise, 留まる とどまる but とまる after 目に, 割る わる, 描く かく after a picture (絵を描く);
 * - words the analyser cut wrong, took for a name or misread wherever they stand (furigana-misread-rules.ts: 雄の体
 *   おす, 一つ上 うえ, 飲み水 みず, 何分かかりますか なんぷん, 男達 おとこたち, 三角形 さんかくけい);
 * - one of two common readings, the one a text for students means more often, marked for the teacher to check
 *   (MARKED): 金 alone before が, を or で かね (金がかかる, 金を払う; 金は, 金の, 金や銀 stay きん, and the analyser's
 *   name キム is きん in a list: 金・銀・銅), 身体 alone からだ (身体を動かす; しんたい in formal texts), 弦 げん (the
 *   instrument's string; a bow's, 弓の弦, stays つる), 我 alone われ (我を忘れる, 我ながら; 我の強い, 我を張る are が),
 *   十月十日 the date じゅうがつとおか (the dictionary's word is the months before a birth, とつきとおか).
 */
export function wordRule(
  t: Token,
  before: Token | undefined,
  after: Token | undefined,
  then?: Token,
  earlier?: Token,
): Token {
  const reading =
    RULES[t.surface]?.(t, before, after, then, earlier) ??
    (pos(t, "動詞") ? VERBS[t.surface[0]!]?.(t, before, after, then, earlier) : null) ??
    misread(t, before, after, then, earlier);
  if (reading) return { ...t, reading, guess: MARKED.has(t.surface) };
  if (UNDECIDED.has(t.surface)) return { ...t, guess: true };
  // the analyser's own reading respelled: as sure or as guessed as it was
  const respelled = nihon(t) ?? modernKana(t, before);
  if (respelled) return { ...t, reading: respelled };
  const on = compoundReading(t, before, after);
  return on ? { ...t, reading: on, guess: true } : t;
}

/** The colours named in hiragana before 色 (むらさき色, はだ色, こげちゃ色). */
const KANA_COLOUR =
  /(むらさき|だいだい|ちゃ|はだ|もも|ぎん|きん|こん|あい|ねずみ|はい|うす|みかん|くり|さくら|ばら|ふじ|やまぶき|えんじ|あかね|うぐいす|わかくさ|すみれ|そら|みず|き)$/u;

/** Words whose rule picks one of two common readings: the proposal is marked 「要確認」. */
const MARKED = new Set(["金", "身体", "弦", "我", "十月十日"]);

/**
 * Words of two common readings no rule tells apart, where no rule read them: the analyser's reading, marked 「要確認」
 * (一行 いっこう, a party, or いちぎょう, one line; 一行目 is read by its rule).
 */
const UNDECIDED = new Set(["一行"]);

const HIRAGANA = /^[\p{Script=Hiragana}ー]+$/u;
const KANJI = /^\p{Script=Han}+$/u;
/** A person's or family's name: a proper noun of a person, a katakana word, a word the dictionary does not know. */
const nameLike = (t: Token) => t.unknown === true || pos(t, "名詞,固有名詞,人名") || KATAKANA.test(t.surface);
/** Where a clause starts: the start of the text, punctuation, a particle or a conjunction before. */
const clauseStart = (before: Token | undefined) => !before || /^(記号|助詞|接続詞)/.test(before.pos ?? "");
/** A word standing alone before a particle: no kanji word joined before it (金 in 金がかかる, not 賞金が). */
const aloneBeforeParticle = (t: Token, before: Token | undefined, after: Token | undefined) =>
  joined(t, after) && pos(after, "助詞") && !(joined(before, t) && /\p{Script=Han}$/u.test(before.surface));
/** A count: a number (二, 1, 何) or a word of a number and a counter of times (一回, 数回, 一度); not 数学, 十分. */
const count = (t: Token) => pos(t, "名詞,数") || /^[一二三四五六七八九十何数幾][回度日週月年人]/.test(t.surface);

const RULES: Record<string, WordRule> = {
  間: (t, before) =>
    t.pos === "名詞,一般" && (before?.surface === "の" || /^(動詞|形容詞|助動詞)/.test(before?.pos ?? ""))
      ? "あいだ"
      : null,
  方: (t, before, after) => {
    if (!pos(t, "名詞,非自立") || !pos(before, "動詞")) return null;
    // a comparison: a verb's plain or past form, then 方が (食べる方がいい, 行った方が早い) stays ほう
    return after?.surface === "が" && /[うくすつぬふむゆるぐずぶぷ]$/.test(before!.surface) ? null : "かた";
  },
  後: (t, before, after) => {
    if (pos(t, "名詞,非自立") && t.reading === "ノチ") return "あと";
    return t.reading === "ゴ" && after?.surface === "に" && clauseStart(before) ? "のち" : null;
  },
  家: (t, before) => {
    if (!pos(t, "名詞,接尾")) return null;
    if (!joined(before, t) || HIRAGANA.test(before.surface)) return "いえ";
    return nameLike(before) ? "け" : null;
  },
  基: (t, before) => (t.reading === "モト" && joined(before, t) && KATAKANA.test(before.surface) ? "き" : null),
  湖: (t, before) => (t.reading === "ミズウミ" && joined(before, t) && contentNoun(before) ? "こ" : null),
  鬼: (t, before) =>
    t.reading === "オニ" && joined(before, t) && contentNoun(before) && KANJI.test(before.surface) ? "き" : null,
  会社: (t, before) => (joined(before, t) && contentNoun(before) ? "がいしゃ" : null),
  小屋: (t, before) => (joined(before, t) && contentNoun(before) ? "ごや" : null),
  他: (t, _before, after) =>
    pos(t, "名詞") && !(joined(t, after) && contentNoun(after!) && !KATAKANA.test(after!.surface)) ? "ほか" : null,
  語: (t) => (t.reading === "カタリ" ? "ご" : null),
  // a line of a text or a table (どの行, 次の行を読む): the dictionary's くだり is a passage of a story; the first
  // line (一行目), where the analyser read its word 一行 いっこう, a party
  行: (t) => (t.reading === "クダリ" ? "ぎょう" : null),
  一行: (t, _before, after) =>
    t.reading === "イッコウ" && joined(t, after) && after!.surface === "目" ? "いちぎょう" : null,
  // rightly (正しく書きましょう): the dictionary's まさしく (surely) is a rare word in a text for students
  正しく: (t) => (t.reading === "マサシク" ? "ただしく" : null),
  // a colour named in katakana or in a colour's hiragana name (オレンジ色, むらさき色), where the analyser read the
  // suffix しょく (a word half in kana, とく色 or へん色, stays)
  色: (t, before) =>
    t.reading === "ショク" &&
    joined(before, t) &&
    (/[\p{Script=Katakana}ー]$/u.test(before.surface) || KANA_COLOUR.test(before.surface))
      ? "いろ"
      : null,
  種: (t, before, after) =>
    t.reading === "タネ" &&
    pos(before, "連体詞") &&
    (before!.surface === "ある" || (/^(この|その|あの)$/.test(before!.surface) && after?.surface === "の"))
      ? "しゅ"
      : null,
  年: (t, before, after, then) =>
    t.reading === "トシ" &&
    clauseStart(before) &&
    before?.surface !== "の" &&
    after?.surface === "に" &&
    joined(t, after) &&
    joined(after, then) &&
    count(then!)
      ? "ねん"
      : null,
  // rice, where the analyser took America (べい) for it: 米作り, 米づくり, and before の, で, が, は, も, や, と
  // (米の生産, 米で納める, 米が実る, 米や麦); the US is 米国の, 日米の and 英米の after a kanji, and 米と中国, 米や英
  // before a place
  米: (t, before, after, then) =>
    t.reading === "ベイ" &&
    /^(作り|づくり|の|で|が|は|も|や|と)$/.test(after?.surface ?? "") &&
    !(/^[やと]$/.test(after!.surface) && pos(then, "名詞,固有名詞,地域")) &&
    !(joined(before, t) && /\p{Script=Han}$/u.test(before.surface))
      ? "こめ"
      : null,
  // a value in mathematics (xの値, 比の値, 値を求める): ね is a price (値が上がる, 値札)
  値: (t, before, after, then) =>
    t.reading === "ネ" &&
    (before?.surface === "の" || (after?.surface === "を" && /^(求|代入)/.test(then?.surface ?? "")))
      ? "あたい"
      : null,
  // a muscle named by a compound the dictionary lacks (内臓筋, 皮筋) after a common noun: the native compounds (道筋,
  // 背筋) are its words, never cut, and a street after a place keeps すじ (堺筋)
  筋: (t, before) =>
    t.reading === "スジ" &&
    pos(t, "名詞,接尾") &&
    joined(before, t) &&
    KANJI.test(before.surface) &&
    pos(before, "名詞,一般")
      ? "きん"
      : null,
  // a dotted note in music (付点音符): the dictionary's つけ is 付け
  付: (t, _before, after) => (t.reading === "ツケ" && joined(t, after) && after!.surface === "点" ? "ふ" : null),
  // the pull-over on the horizontal bar (逆上がり), where the analyser read the prefix ぎゃく
  逆: (t, _before, after) => (joined(t, after) && after!.surface.startsWith("上が") ? "さか" : null),
  // a hundred years old (百歳まで生きる): the dictionary's ももとせ is a poem's hundred years
  百歳: (t) => (t.reading === "モモトセ" ? "ひゃくさい" : null),
  // negative (負の数, 負の向き): まけ is written 負け
  負: (t, _before, after) => (t.reading === "マケ" && !after?.surface.startsWith("け") ? "ふ" : null),
  // a number in mathematics: 正の数, 負の数, 正負の数; and many, 数多く かずおおく (the analyser's 数|多く すう)
  数: (t, before, after, _then, earlier) => {
    if (t.reading === "スウ" && joined(t, after) && /^多[くい]/.test(after!.surface)) return "かず";
    return t.reading === "カズ" && before?.surface === "の" && /^(正|負|正負)$/.test(earlier?.surface ?? "")
      ? "すう"
      : null;
  },
  // kana (the dictionary's かめい is a pen name): 送り仮名, 振り仮名 がな
  仮名: (t, before) =>
    t.reading === "カメイ" ? (joined(before, t) && /^(送り|振り|捨て)$/.test(before.surface) ? "がな" : "かな") : null,
  // a side (この辺, 辺の長さ, 辺AB): あたり is written 辺り
  辺: (t, _before, after) => (t.reading === "アタリ" && !after?.surface.startsWith("り") ? "へん" : null),
  // an angle named by its letters (角A, 角ABC), and a street's corner one turns at (角を曲がる)
  角: (t, _before, after, then) => {
    if (joined(t, after) && /^[A-ZＡ-Ｚ]/.test(after!.surface)) return "かく";
    return t.reading === "カク" && /^[をでに]$/.test(after?.surface ?? "") && then?.surface.startsWith("曲")
      ? "かど"
      : null;
  },
  的: (t, before) => (t.reading === "テキ" && joined(before, t) && pos(before, "助詞") ? "まと" : null),
  琴: (t, before, after) => (t.reading === "キン" && aloneBeforeParticle(t, before, after) ? "こと" : null),
  金: (t, before, after) => {
    if (t.reading !== "キン" && t.reading !== "キム") return null;
    if (
      aloneBeforeParticle(t, before, after) &&
      /^[がをで]$/.test(after!.surface) &&
      !LIST_SEPARATOR.test(before?.surface ?? "")
    )
      return "かね";
    // the analyser's name キム anywhere but before a name's suffix (金さん) is the metal: 金・銀・銅, 金は
    const metal =
      pos(after, "助詞") || LIST_SEPARATOR.test(after?.surface ?? "") || LIST_SEPARATOR.test(before?.surface ?? "");
    return t.reading === "キム" && metal ? "きん" : null;
  },
  身体: (t, before, after) => (t.reading === "シンタイ" && aloneBeforeParticle(t, before, after) ? "からだ" : null),
  十月十日: (t) => (t.reading === "トツキトオカ" ? "じゅうがつとおか" : null),
  弦: (t, before, _after, _then, earlier) =>
    t.reading === "ツル" && !(earlier?.surface === "弓" && /^[のに]$/.test(before?.surface ?? "")) ? "げん" : null,
  我: (t, before, after, then) => {
    if (t.reading !== "ワガ" || !pos(t, "名詞") || !aloneBeforeParticle(t, before, after)) return null;
    // self-will: 我の強い, 我を張る, 我を通す
    const will =
      (after!.surface === "の" && then?.surface.startsWith("強")) ||
      (after!.surface === "を" && /^[張通]/.test(then?.surface ?? ""));
    if (will) return "が";
    return /^[がの]$/.test(after!.surface) ? null : "われ";
  },
};

/**
 * A word's reading begins with ず or じ, never づ or ぢ (the dictionary's 図形 ヅケイ: ずけい); a suffix or a word
 * joined after a kanji may begin voiced so (米|作り こめづくり).
 */
const modernKana = (t: Token, before: Token | undefined) =>
  t.reading &&
  /^[ヅヂ]/.test(t.reading) &&
  !pos(t, "名詞,接尾") &&
  !(joined(before, t) && /\p{Script=Han}$/u.test(before.surface))
    ? (t.reading[0] === "ヅ" ? "ズ" : "ジ") + t.reading.slice(1)
    : null;

/** 日本 and the words it begins (日本代表, 日本刀) read にほん where the dictionary says にっぽん. */
const nihon = (t: Token) =>
  t.surface.startsWith("日本") && t.reading?.startsWith("ニッポン") ? "ニホン" + t.reading.slice(4) : null;
