import type { Token } from "./furigana-token";

/**
 * Prefixes and suffixes with one reading wherever they stand, and the reading (第1問 だい, 約3倍 やく, 各学年 かく;
 * 科学的 てき, 安全性 せい, 近代化 か, 交通費 ひ): where the analyser read them so, the reading is sure. Not those with
 * two (者 しゃ or もの, 中 ちゅう or じゅう, 家 か, け or や, 人 じん or にん, 水 すい or みず), which stay marked.
 */
const SURE_AFFIXES: Record<"接頭詞" | "名詞,接尾", Record<string, string>> = {
  接頭詞: {
    第: "ダイ",
    約: "ヤク",
    各: "カク",
    毎: "マイ",
    全: "ゼン",
    翌: "ヨク",
    両: "リョウ",
    諸: "ショ",
    再: "サイ",
    未: "ミ",
    非: "ヒ",
    総: "ソウ",
  },
  "名詞,接尾": {
    的: "テキ",
    性: "セイ",
    化: "カ",
    感: "カン",
    論: "ロン",
    率: "リツ",
    権: "ケン",
    族: "ゾク",
    式: "シキ",
    員: "イン",
    界: "カイ",
    系: "ケイ",
    状: "ジョウ",
    費: "ヒ",
    層: "ソウ",
    君: "クン",
    駅: "エキ",
    省: "ショウ",
    県: "ケン",
    区: "ク",
    州: "シュウ",
    氏: "シ",
    製: "セイ",
    達: "タチ",
    語: "ゴ",
    線: "セン",
    点: "テン",
    類: "ルイ",
    観: "カン",
    制: "セイ",
    職: "ショク",
    室: "シツ",
    額: "ガク",
    病: "ビョウ",
    業: "ギョウ",
    品: "ヒン",
    用: "ヨウ",
    学: "ガク",
    機: "キ",
    期: "キ",
  },
};
export const sureAffix = (t: Token) => {
  const kind = t.pos?.startsWith("接頭詞") ? "接頭詞" : t.pos?.startsWith("名詞,接尾") ? "名詞,接尾" : null;
  return kind !== null && SURE_AFFIXES[kind][t.surface] === t.reading;
};
