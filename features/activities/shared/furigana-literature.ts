/**
 * The authors, works and characters of 国語 that the textbooks of 小学校 and 中学校 carry, as they read them: the
 * classics the 学習指導要領 (2017) has taught (竹取物語, 枕草子, 平家物語, 徒然草, おくのほそ道, 論語, 漢詩), and the
 * stories read in every textbook (ごんぎつね, 大造じいさんとガン, モチモチの木, 海の命, 故郷). The analyser marks each
 * name 「要確認」 and reads some wrong: 森鷗外 leaves 鷗 bare, 樋口一葉 かずは, 杜甫 もり はじめ, 兵十 へい じゅう, 大造
 * たいぞう, 豆太 まめ ふとし, 竹取の翁 おう. An author's full name is read so wherever it stands, as the curriculum's
 * people are (furigana-figures.ts); a one-word name or work only where the analyser's words start and end, as the
 * places are (furigana-places.ts). The roster's names and the school's own words win over both. Each author: a name's
 * parts, [written, read].
 */
export const LITERATURE_AUTHORS: [string, string][][] = [
  [
    ["紀", "きの"],
    ["貫之", "つらゆき"],
  ],
  [
    ["鴨", "かもの"],
    ["長明", "ちょうめい"],
  ],
  [
    ["兼好", "けんこう"],
    ["法師", "ほうし"],
  ],
  [
    ["松尾", "まつお"],
    ["芭蕉", "ばしょう"],
  ],
  [
    ["与謝", "よさ"],
    ["蕪村", "ぶそん"],
  ],
  [
    ["小林", "こばやし"],
    ["一茶", "いっさ"],
  ],
  [
    ["正岡", "まさおか"],
    ["子規", "しき"],
  ],
  [
    ["樋口", "ひぐち"],
    ["一葉", "いちよう"],
  ],
  [
    ["森", "もり"],
    ["鷗外", "おうがい"],
  ],
  [
    ["森", "もり"],
    ["鴎外", "おうがい"],
  ],
  [
    ["夏目", "なつめ"],
    ["漱石", "そうせき"],
  ],
  [
    ["与謝野", "よさの"],
    ["晶子", "あきこ"],
  ],
  [
    ["石川", "いしかわ"],
    ["啄木", "たくぼく"],
  ],
  [
    ["芥川", "あくたがわ"],
    ["龍之介", "りゅうのすけ"],
  ],
  [
    ["宮沢", "みやざわ"],
    ["賢治", "けんじ"],
  ],
  [
    ["太宰", "だざい"],
    ["治", "おさむ"],
  ],
  [
    ["新美", "にいみ"],
    ["南吉", "なんきち"],
  ],
  [
    ["椋", "むく"],
    ["鳩十", "はとじゅう"],
  ],
  [
    ["斎藤", "さいとう"],
    ["隆介", "りゅうすけ"],
  ],
  [
    ["今西", "いまにし"],
    ["祐行", "すけゆき"],
  ],
  [
    ["立松", "たてまつ"],
    ["和平", "わへい"],
  ],
  [
    ["向田", "むこうだ"],
    ["邦子", "くにこ"],
  ],
];

/**
 * One-word names, each a whole word [written, read]: the Chinese authors, the works, the stories' characters, and
 * 芭蕉's frog as the haiku reads it (古池や蛙 かわず; the analyser's かえる).
 */
export const LITERATURE_WORDS: [string, string][] = [
  ["孔子", "こうし"],
  ["杜甫", "とほ"],
  ["李白", "りはく"],
  ["孟浩然", "もうこうねん"],
  ["魯迅", "ろじん"],
  ["竹取物語", "たけとりものがたり"],
  ["竹取の翁", "たけとりのおきな"],
  ["土佐日記", "とさにっき"],
  ["源氏物語", "げんじものがたり"],
  ["枕草子", "まくらのそうし"],
  ["方丈記", "ほうじょうき"],
  ["徒然草", "つれづれぐさ"],
  ["平家物語", "へいけものがたり"],
  ["万葉集", "まんようしゅう"],
  ["古今和歌集", "こきんわかしゅう"],
  ["新古今和歌集", "しんこきんわかしゅう"],
  ["おくのほそ道", "おくのほそみち"],
  ["奥の細道", "おくのほそみち"],
  ["論語", "ろんご"],
  ["春望", "しゅんぼう"],
  ["春暁", "しゅんぎょう"],
  ["羅生門", "らしょうもん"],
  ["兵十", "ひょうじゅう"],
  ["加助", "かすけ"],
  ["弥助", "やすけ"],
  ["大造", "だいぞう"],
  ["豆太", "まめた"],
  ["与吉", "よきち"],
  ["古池や蛙", "ふるいけやかわず"],
];
