import { pos, type WordRule } from "./furigana-token";

/** What one holds in the heart, いだく (夢を抱く, 疑問を抱きつつ); in one's arms it is だく (子どもを抱く). */
const FELT =
  /^(夢|希望|大志|疑問|疑い|不安|不満|憂い|恋心|好意|敬意|関心|興味|期待|感情|印象|野望|野心|思い|想い|誇り|憧れ|危機感|劣等感|反感|恐怖|コンプレックス)$/;

/**
 * What one draws with a pen, かく (絵を描く, 絵しか描けない, 漫画を描いた, 地図を描く); a shape in the air, a scene in
 * words or a plan (未来図を描く) is えがく.
 */
const DRAWN = /^(絵|似顔絵|漫画|マンガ|イラスト|図|地図)$/;

/** What is untied, ほどく (ひもを解こう); a problem or a riddle is solved, とく (問題を解こう). */
const TIED = /^(ひも|紐|靴ひも|結び目|縄|ロープ|帯|糸|リボン|包み|包帯|荷物|荷)$/;

/** What opens by itself, あく (ドアが開く, 穴が開いている, 店が開く); a book, a meeting or a flower ひらく. */
const OPENS = /^(ドア|窓|扉|戸|門|穴|店|幕|蓋|ふた|目|引き出し|カーテン|シャッター)$/;

/**
 * Verbs, by their first kanji, in every form (抱く, 抱い, 抱き, 抱け), where the dictionary reads a form wrong or one
 * reading for two verbs (the rules of furigana-word-rules.ts call these for every verb):
 * - 抱 いだ after a feeling and を, or after 胸に (夢を抱く, 胸に抱いた), and だ otherwise (花を抱き, 抱かせて);
 * - 見出す みいだす in every form (the dictionary's 見出せ ミダセ; the noun 見出し stays みだし);
 * - 留まる とどまる (その場に留まる) but after 目に, 気に, 心に, 耳に とまる (目に留まる);
 * - 割る わる (6を2で割る: the dictionary reads the plain form 割る as 割れる, われる);
 * - 描く かく after a picture and a particle (絵を描く, 絵しか描けない, 漫画を描いた), えがく otherwise (円を描いて飛ぶ);
 * - 獲る とる in every form (魚を獲る, 獲った: the dictionary's える is 得る's);
 * - 根付く ねづく (文化が根付いている: the dictionary's ねつく);
 * - 開く あく after a door, a window, a hole, a shop and が (ドアが開く, 穴が開いている), ひらく otherwise (本を開く, 花が開く)
 *   and in the passive (扉が開かれた: opened by someone);
 * - 解こう とこう (問題を解こう: the dictionary reads only this form as ほどく's), ほどこう after a string or a knot and を
 *   (ひもを解こう).
 */
export const VERBS: Record<string, WordRule> = {
  抱: (t, before, _after, _then, earlier) => {
    const rest = /^イ?ダ(.*)$/.exec(t.reading ?? "")?.[1];
    // a compound verb is the dictionary's own word (抱きしめる, 抱き上げる だき)
    if (rest === undefined || t.surface.length > 2) return null;
    const felt =
      (before?.surface === "を" && FELT.test(earlier?.surface ?? "")) ||
      (before?.surface === "に" && earlier?.surface === "胸");
    return (felt ? "イダ" : "ダ") + rest;
  },
  解: (t, before, _after, _then, earlier) =>
    t.reading === "ホドコ" && !(before?.surface === "を" && TIED.test(earlier?.surface ?? "")) ? "トコ" : null,
  見: (t) => (t.surface.startsWith("見出") && t.reading?.startsWith("ミダ") ? "ミイダ" + t.reading.slice(2) : null),
  留: (t, before, _after, _then, earlier) => {
    const rest = /^ト(?:ド)?マ(.*)$/.exec(t.reading ?? "")?.[1];
    if (rest === undefined || !t.surface.startsWith("留ま")) return null;
    const noticed = before?.surface === "に" && /^(目|気|心|耳)$/.test(earlier?.surface ?? "");
    return (noticed ? "トマ" : "トドマ") + rest;
  },
  割: (t) => (t.surface === "割る" && t.reading === "ワレル" ? "ワル" : null),
  描: (t, before, _after, _then, earlier) =>
    t.reading?.startsWith("エガ") &&
    /^(を|が|しか|も|は)$/.test(before?.surface ?? "") &&
    DRAWN.test(earlier?.surface ?? "") &&
    !pos(earlier, "名詞,接尾")
      ? "カ" + t.reading.slice(2)
      : null,
  獲: (t) => (t.reading?.startsWith("エ") ? "ト" + t.reading.slice(1) : null),
  開: (t, before, after, _then, earlier) =>
    t.reading?.startsWith("ヒラ") &&
    t.surface.startsWith("開") &&
    !after?.surface.startsWith("れ") &&
    before?.surface === "が" &&
    OPENS.test(earlier?.surface ?? "")
      ? "ア" + t.reading.slice(2)
      : null,
  根: (t) => (t.surface.startsWith("根付") && t.reading?.startsWith("ネツ") ? "ネヅ" + t.reading.slice(2) : null),
};
