/**
 * The 47 prefectures, which the 小学校学習指導要領 (2017) has fourth-grade 社会 learn by name and place, and the
 * prefectural capitals named otherwise than their prefecture (県庁所在地), with their readings. The analyser knows
 * them all but, as proper nouns with a suffix, marks every one 「要確認」: 青森(あおもり)? 県(けん)?. Read from this
 * list they are unmarked, so a teacher's eye goes where a reading may be wrong. Each is listed with its suffix (青森県,
 * 青森市, 札幌市), found only where the analyser's words start and end: a name alone can be another word (大分 だいぶ,
 * 三重 さんじゅう) and stays the analyser's, marked. Three names a text uses alone (東京, 京都, 大阪) and 北海道 are
 * listed as they are.
 */
const PREFECTURES: [string, string][] = [
  ["青森", "あおもり"],
  ["岩手", "いわて"],
  ["宮城", "みやぎ"],
  ["秋田", "あきた"],
  ["山形", "やまがた"],
  ["福島", "ふくしま"],
  ["茨城", "いばらき"],
  ["栃木", "とちぎ"],
  ["群馬", "ぐんま"],
  ["埼玉", "さいたま"],
  ["千葉", "ちば"],
  ["神奈川", "かながわ"],
  ["新潟", "にいがた"],
  ["富山", "とやま"],
  ["石川", "いしかわ"],
  ["福井", "ふくい"],
  ["山梨", "やまなし"],
  ["長野", "ながの"],
  ["岐阜", "ぎふ"],
  ["静岡", "しずおか"],
  ["愛知", "あいち"],
  ["三重", "みえ"],
  ["滋賀", "しが"],
  ["兵庫", "ひょうご"],
  ["奈良", "なら"],
  ["和歌山", "わかやま"],
  ["鳥取", "とっとり"],
  ["島根", "しまね"],
  ["岡山", "おかやま"],
  ["広島", "ひろしま"],
  ["山口", "やまぐち"],
  ["徳島", "とくしま"],
  ["香川", "かがわ"],
  ["愛媛", "えひめ"],
  ["高知", "こうち"],
  ["福岡", "ふくおか"],
  ["佐賀", "さが"],
  ["長崎", "ながさき"],
  ["熊本", "くまもと"],
  ["大分", "おおいた"],
  ["宮崎", "みやざき"],
  ["鹿児島", "かごしま"],
  ["沖縄", "おきなわ"],
];

/** The capitals whose names are not their prefecture's (津 and the capitals written in kana need no ruby). */
const CAPITALS: [string, string][] = [
  ["札幌", "さっぽろ"],
  ["盛岡", "もりおか"],
  ["仙台", "せんだい"],
  ["水戸", "みと"],
  ["宇都宮", "うつのみや"],
  ["前橋", "まえばし"],
  ["横浜", "よこはま"],
  ["金沢", "かなざわ"],
  ["甲府", "こうふ"],
  ["名古屋", "なごや"],
  ["大津", "おおつ"],
  ["神戸", "こうべ"],
  ["松江", "まつえ"],
  ["高松", "たかまつ"],
  ["松山", "まつやま"],
  ["那覇", "なは"],
];

/** The places, each a whole word: [written, read]. */
export const CURRICULUM_PLACES: [string, string][] = [
  ["北海道", "ほっかいどう"],
  ["東京", "とうきょう"],
  ["東京都", "とうきょうと"],
  ["京都", "きょうと"],
  ["京都府", "きょうとふ"],
  ["大阪", "おおさか"],
  ["大阪府", "おおさかふ"],
  ...PREFECTURES.map(([base, reading]): [string, string] => [`${base}県`, `${reading}けん`]),
  ...PREFECTURES.map(([base, reading]): [string, string] => [`${base}市`, `${reading}し`]),
  ...CAPITALS.map(([base, reading]): [string, string] => [`${base}市`, `${reading}し`]),
];
