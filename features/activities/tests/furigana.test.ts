import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alignReading, isKana, toHiragana } from "@/features/activities/shared/furigana-align";
import { nameEntries } from "@/features/activities/shared/furigana-names";
import { applyFurigana, proposeFurigana, type Token } from "@/features/activities/shared/furigana-propose";
import { chunksOf, textSpans } from "@/features/activities/shared/furigana-spans";
import { correctedWords, withoutRuby } from "@/features/activities/shared/furigana-words";
import { DICTIONARY_DIR, tokenizeMarkup } from "@/features/activities/server/furigana-tokenizer";
import { COUNTERS, countReading, numberReading, numberValue } from "@/features/activities/shared/furigana-counters";
import { parseRichText } from "@/platform/richtext/parse";
import { toPlainText } from "@/platform/richtext/plain";

/** Tokens as the analyser gives them, written by hand: [surface, reading] in order from `start`. */
function tokens(words: [string, string | null][], start = 0): Token[] {
  let at = start;
  return words.map(([surface, reading]) => {
    const t = { start: at, surface, reading };
    at += surface.length;
    return t;
  });
}
const applyAll = (text: string, toks: Token[], names = nameEntries([])) =>
  applyFurigana(text, proposeFurigana(text, toks, names));

describe("okurigana stay out of the ruby", () => {
  it.each([
    ["食べる", "タベル", [{ offset: 0, base: "食", reading: "た" }]],
    ["東京", "トウキョウ", [{ offset: 0, base: "東京", reading: "とうきょう" }]],
    [
      "取り扱い",
      "トリアツカイ",
      [
        { offset: 0, base: "取", reading: "と" },
        { offset: 2, base: "扱", reading: "あつか" },
      ],
    ],
    ["お茶", "オチャ", [{ offset: 1, base: "茶", reading: "ちゃ" }]],
    ["人々", "ヒトビト", [{ offset: 0, base: "人々", reading: "ひとびと" }]],
  ])("%s read %s", (word, reading, expected) => {
    expect(alignReading(word, reading)).toEqual(expected);
  });
  it("a reading that does not fit the written kana covers the whole word", () => {
    expect(alignReading("食べる", "ノム")).toEqual([{ offset: 0, base: "食べる", reading: "のむ" }]);
  });
  it("kana, latin and numbers get nothing", () => {
    expect(alignReading("ください", "クダサイ")).toEqual([]);
    expect(alignReading("abc", "abc")).toEqual([]);
    expect(alignReading("3", "")).toEqual([]);
    expect(toHiragana("トウキョウー")).toBe("とうきょうー");
  });
});

describe("proposals in the stored markup", () => {
  it("proposes over kanji and writes |base(reading)", () => {
    const text = "東京に住んで食べる";
    const toks = tokens([
      ["東京", "トウキョウ"],
      ["に", "ニ"],
      ["住ん", "スン"],
      ["で", "デ"],
      ["食べる", "タベル"],
    ]);
    expect(proposeFurigana(text, toks).map((p) => [p.base, p.reading, p.word])).toEqual([
      ["東京", "とうきょう", "東京"],
      ["住", "す", "住ん"],
      ["食", "た", "食べる"],
    ]);
    expect(applyAll(text, toks)).toBe("|東京(とうきょう)に|住(す)んで|食(た)べる");
  });
  it("leaves words already in ruby, math and colour names as they are", () => {
    const text = "|東京(とうきょう)と`x`と{red:東京}";
    const spans = textSpans(text);
    expect(spans.map((s) => s.text)).toEqual(["と", "と", "東京"]);
    const toks = [
      { start: 1, surface: "東京", reading: "ヒガシキョウ" },
      { start: spans[2]!.start, surface: "東京", reading: "トウキョウ" },
    ];
    expect(proposeFurigana(text, toks).map((p) => p.start)).toEqual([spans[2]!.start]);
    expect(applyAll(text, toks)).toBe("|東京(とうきょう)と`x`と{red:|東京(とうきょう)}");
    // a proposal forged inside the existing ruby is refused when applying too
    expect(applyFurigana(text, [{ start: 1, end: 3, base: "東京", reading: "ひがしきょう" }])).toBe(text);
  });
  it("nothing inside math, even when the analyser was given it", () => {
    const text = "`東京`と東京";
    const toks = [
      { start: 1, surface: "東京", reading: "トウキョウ" },
      { start: 5, surface: "東京", reading: "トウキョウ" },
    ];
    expect(proposeFurigana(text, toks).map((p) => p.start)).toEqual([5]);
    expect(applyFurigana(text, [{ start: 1, end: 3, base: "東京", reading: "とうきょう" }])).toBe(text);
  });
  it("never writes a ruby after a literal bar (it would read as a line break)", () => {
    expect(proposeFurigana("a|東京", [{ start: 2, surface: "東京", reading: "トウキョウ" }])).toEqual([]);
    expect(applyFurigana("a|東京", [{ start: 2, end: 4, base: "東京", reading: "とうきょう" }])).toBe("a|東京");
  });
  it("skips proposals whose base moved, overlaps or has an empty reading", () => {
    const text = "東京";
    expect(applyFurigana(text, [{ start: 0, end: 2, base: "京都", reading: "きょうと" }])).toBe("東京");
    expect(applyFurigana(text, [{ start: 0, end: 2, base: "東京", reading: " () " }])).toBe("東京");
    expect(applyFurigana(text, [{ start: 0, end: 2, base: "東京", reading: "とう(きょう)" }])).toBe(
      "|東京(とうきょう)",
    );
    // a reading with markup characters would close the bold or the colour around it
    expect(applyFurigana("**東京**", [{ start: 2, end: 4, base: "東京", reading: "と**う_{}_" }])).toBe(
      "**|東京(とう)**",
    );
    expect(applyFurigana("{red:東京}", [{ start: 5, end: 7, base: "東京", reading: "と}う" }])).toBe(
      "{red:|東京(とう)}",
    );
    expect(
      applyFurigana(text, [
        { start: 0, end: 2, base: "東京", reading: "とうきょう" },
        { start: 1, end: 2, base: "京", reading: "きょう" },
      ]),
    ).toBe("|東京(とうきょう)");
  });
});

describe("readings of names come from the roster", () => {
  const roster = nameEntries([
    { name: "山田 花子", nameKana: "やまだ はなこ" },
    { name: "東 翔", nameKana: "アズマ カケル" },
    { name: "学", nameKana: "まなぶ" },
  ]);
  it("a full name and a single part take the roster's reading", () => {
    const text = "山田花子さんと東さん";
    const toks = tokens([
      ["山田", "ヤマダ"],
      ["花子", "ハナコ"],
      ["さん", "サン"],
      ["と", "ト"],
      ["東", "ヒガシ"],
      ["さん", "サン"],
    ]);
    const proposals = proposeFurigana(text, toks, roster);
    expect(proposals.map((p) => [p.base, p.reading, p.source])).toEqual([
      ["山田", "やまだ", "roster"],
      ["花子", "はなこ", "roster"],
      ["東", "あずま", "roster"],
    ]);
  });
  it("a one-part name counts only as a whole word (学 in 学校 is no name)", () => {
    const text = "学校で学と会う";
    const toks = tokens([
      ["学校", "ガッコウ"],
      ["で", "デ"],
      ["学", "ガク"],
      ["と", "ト"],
      ["会う", "アウ"],
    ]);
    expect(proposeFurigana(text, toks, roster).map((p) => [p.base, p.reading])).toEqual([
      ["学校", "がっこう"],
      ["学", "まなぶ"],
      ["会", "あ"],
    ]);
  });
  it("a name two people read differently gives no roster reading", () => {
    const twice = nameEntries([
      { name: "山田 一", nameKana: "やまだ はじめ" },
      { name: "山田 二郎", nameKana: "やまた じろう" },
    ]);
    const toks = tokens([["山田", "ヤマダ"]]);
    expect(proposeFurigana("山田", toks, twice)).toEqual([
      expect.objectContaining({ reading: "やまだ", source: "dictionary" }),
    ]);
  });
});

describe("the school's own word list", () => {
  it("a listed word takes the school's reading as a whole word or run, longest first, never marked to check", () => {
    const text = "魚市場と市場と二重跳び";
    const toks = tokens([
      ["魚", "サカナ"],
      ["市場", "イチバ"],
      ["と", "ト"],
      ["市場", "イチバ"],
      ["と", "ト"],
      ["二", "ニ"],
      ["重", "ジュウ"],
      ["跳び", "トビ"],
    ]);
    const words = [
      { base: "魚市場", reading: "うおいちば" },
      { base: "市場", reading: "しじょう" },
      { base: "重跳", reading: "じゅうと" },
    ];
    expect(proposeFurigana(text, toks, [], words).map((p) => [p.base, p.reading, p.source, p.check])).toEqual([
      ["魚市場", "うおいちば", "school", false],
      ["市場", "しじょう", "school", false],
      ["二重", "にじゅう", "dictionary", false],
      ["跳", "と", "dictionary", false],
    ]);
  });
  it("a roster name goes before a listed word written alike", () => {
    const toks = tokens([["東", "ヒガシ"]]);
    const roster = nameEntries([{ name: "東", nameKana: "あずま" }]);
    expect(proposeFurigana("東", toks, roster, [{ base: "東", reading: "とう" }])).toMatchObject([
      { reading: "あずま", source: "roster" },
    ]);
  });
  it("learns from a saved text the words whose ruby the proposer reads otherwise, marked to check, or not at all", () => {
    const { plain, rubies } = withoutRuby("|重複(ちょうふく)と|体重(たいじゅう)と|聚慎(シュウシン)と|重(え)ねる");
    expect(plain).toBe("重複と体重と聚慎と重ねる");
    const toks = tokens([
      ["重複", "ジュウフク"],
      ["と", "ト"],
      ["体重", "タイジュウ"],
      ["と", "ト"],
      ["聚", null],
      ["慎", "マキ"],
      ["と", "ト"],
      ["重ねる", "カサネル"],
    ]);
    const proposals = proposeFurigana(plain, toks);
    expect(correctedWords(plain, rubies, toks, proposals)).toEqual([
      { base: "重複", reading: "ちょうふく" },
      { base: "聚慎", reading: "しゅうしん" },
      { base: "重ねる", reading: "えねる" },
    ]);
  });
});

describe("long stretches go to the analyser in pieces", () => {
  it("cuts after a particle or punctuation, else at 128 characters, never inside a surrogate pair", () => {
    const prose = "先生の方を見てください。".repeat(30);
    const pieces = chunksOf(prose);
    expect(pieces.map((c) => c.text).join("")).toBe(prose);
    for (const c of pieces.slice(0, -1)) expect(c.text).toMatch(/。$/);
    const noPunctuation = "先生の方を見て".repeat(40);
    for (const c of chunksOf(noPunctuation).slice(0, -1)) expect(c.text).toMatch(/\p{Script=Hiragana}$/u);
    const wide = "𠮷".repeat(100);
    for (const c of chunksOf(wide)) expect(c.text.length % 2).toBe(0);
  });
  it("property: the pieces are the text, in order, each at most 128 long", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 1_000 }), (text) => {
        const pieces = chunksOf(text);
        expect(pieces.map((c) => c.text).join("")).toBe(text);
        let at = 0;
        for (const c of pieces) {
          expect(c.start).toBe(at);
          expect(c.text.length).toBeLessThanOrEqual(128);
          at += c.text.length;
        }
      }),
    );
  });
});

describe("properties", () => {
  const pieces = fc.constantFrom(
    "東京",
    "食べる",
    "|",
    "(",
    ")",
    "（",
    "**",
    "__",
    "`",
    "{red:",
    "}",
    "||",
    "あ",
    "a",
    "3",
    "|東(ひがし)",
    "・",
    "\n",
  );
  const markup = fc.array(pieces, { maxLength: 30 }).map((a) => a.join(""));

  it("text spans are the text nodes of the parse, at their offsets", () => {
    fc.assert(
      fc.property(markup, (text) => {
        const spans = textSpans(text);
        for (const s of spans) expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
        expect(spans.map((s) => s.text).join("")).toBe(textsOf(parseRichText(text)));
      }),
    );
  });
  it("whatever the teacher types as readings, the text reads the same in plain and gains only ruby", () => {
    fc.assert(
      fc.property(markup, fc.array(fc.string({ maxLength: 8 }), { maxLength: 30 }), (text, typed) => {
        const toks: Token[] = [];
        for (let at = text.indexOf("東京"); at >= 0; at = text.indexOf("東京", at + 1))
          toks.push({ start: at, surface: "東京", reading: "トウキョウ" });
        const proposals = proposeFurigana(text, toks).map((p, i) => ({ ...p, reading: typed[i] ?? p.reading }));
        const out = applyFurigana(text, proposals);
        expect(toPlainText(out, "ja")).toBe(toPlainText(text, "ja"));
        expect(rubies(out) - rubies(text)).toBe(
          proposals.filter((p) => p.reading.replace(/[|()（）\n\r`{}*_]/g, "").trim() !== "").length,
        );
      }),
    );
  });
  it("applying every proposal keeps what a reader sees and adds one ruby per proposal", () => {
    fc.assert(
      fc.property(markup, (text) => {
        // the analyser's words: every 東京 and every 食べる the text holds
        const toks: Token[] = [];
        for (const [word, reading] of [
          ["東京", "トウキョウ"],
          ["食べる", "タベル"],
        ] as const) {
          for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1))
            toks.push({ start: at, surface: word, reading });
        }
        const proposals = proposeFurigana(text, toks);
        const out = applyFurigana(text, proposals);
        expect(toPlainText(out, "ja")).toBe(toPlainText(text, "ja"));
        expect(rubies(out) - rubies(text)).toBe(proposals.length);
        // applying again proposes nothing new in what is now ruby
        expect(proposeFurigana(out, [])).toEqual([]);
      }),
    );
  });
});

type Node = ReturnType<typeof parseRichText>[number];
function textsOf(nodes: Node[]): string {
  return nodes.map((n) => (n.type === "text" ? n.value : "children" in n ? textsOf(n.children) : "")).join("");
}
function rubies(text: string): number {
  const count = (nodes: Node[]): number =>
    nodes.reduce((s, n) => s + (n.type === "ruby" ? 1 : "children" in n ? count(n.children) : 0), 0);
  return count(parseRichText(text));
}

describe("the dictionary ships with the app", () => {
  it("is read from the production dependency kuromoji, which Next leaves in node_modules", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.kuromoji).toBe("0.1.2");
    expect(readFileSync("next.config.ts", "utf8")).toMatch(/serverExternalPackages: \[[^\]]*"kuromoji"/);
    expect(DICTIONARY_DIR.endsWith("node_modules/kuromoji/dict")).toBe(true);
    expect(readdirSync(DICTIONARY_DIR).sort()).toEqual(
      expect.arrayContaining(["base.dat.gz", "cc.dat.gz", "check.dat.gz", "tid.dat.gz", "unk.dat.gz"]),
    );
  });
});

describe("numbers, counters and words read from their neighbours", () => {
  const readingsOf = async (text: string) =>
    proposeFurigana(text, await tokenizeMarkup(text)).map((p) => `${p.base}=${p.reading}`);
  it.each([
    ["六百", "六百=ろっぴゃく"],
    ["三百六十五", "三百六十五=さんびゃくろくじゅうご"],
    ["鉛筆が一本", "一本=いっぽん"],
    ["鉛筆が三本", "三本=さんぼん"],
    ["一人で", "一人=ひとり"],
    ["二人で", "二人=ふたり"],
    ["四人で", "四人=よにん"],
    ["何人いますか", "何人=なんにん"],
    ["八日に", "八日=ようか"],
    ["二十日に", "二十日=はつか"],
    ["二十歳になる", "二十歳=はたち"],
    ["俳句は十七音", "十七音=じゅうしちおん"],
    ["付点四分音符", "四分=しぶ"],
    ["付点四分音符", "付=ふ"],
    ["二分音符", "二分=にぶ"],
    ["八分休符", "休符=きゅうふ"],
    ["四分の一", "四分=よんぶん"],
    ["逆上がり", "逆=さか"],
    ["百歳まで生きる", "百歳=ひゃくさい"],
    ["一日中", "一日中=いちにちじゅう"],
    ["四時に", "四時=よじ"],
    ["九時に", "九時=くじ"],
    ["十分（じゅうぶん）はことば", "十分=じゅうぶん"],
    ["三分まつ", "三分=さんぷん"],
    ["十本", "十本=じゅっぽん"],
    ["六回", "六回=ろっかい"],
    ["夏の間に", "間=あいだ"],
    ["何の本", "何=なん"],
    ["一隻の船", "一隻=いっせき"],
    ["一回戦で", "一回戦=いっかいせん"],
    ["一通り読む", "一通=ひととお"],
    ["何千年も", "何千=なんぜん"],
    ["織田家の人", "家=け"],
    ["ヴァレンシュタイン家を", "家=け"],
    ["カルボニル基を", "基=き"],
    ["インレー湖に", "湖=こ"],
    ["復讐鬼が", "鬼=き"],
    ["印刷会社", "会社=がいしゃ"],
    ["猫小屋", "小屋=ごや"],
    ["他の人", "他=ほか"],
    ["語の意味", "語=ご"],
    ["後に述べる", "後=のち"],
    ["日本代表", "日本=にほん"],
    ["泳いでいる間に", "間=あいだ"],
    ["食べる方がいい", "方=ほう"],
    ["辺ABの長さ", "辺=へん"],
    ["正方形の辺の長さ", "辺=へん"],
    ["この辺で", "辺=へん"],
    ["角を曲がると", "角=かど"],
    ["角の大きさ", "角=かく"],
    ["負の数", "負=ふ"],
    ["正の数と負の数", "数=すう"],
    ["パーツの数で", "数=かず"],
    ["比の値", "値=あたい"],
    ["xの値を求めなさい", "値=あたい"],
    ["値を求めなさい", "値=あたい"],
    ["値が上がる", "値=ね"],
    ["夢を抱く", "抱=いだ"],
    ["疑問を抱きつつ", "抱=いだ"],
    ["胸に抱いた", "抱=いだ"],
    ["花を抱き", "抱=だ"],
    ["赤ちゃんを抱いて", "抱=だ"],
    ["夢を抱きしめる", "抱=だ"],
    ["希望を抱き続ける", "抱=いだ"],
    ["その場に留まる", "留=とど"],
    ["目に留まる", "留=と"],
    ["6を2で割る。", "割=わ"],
    ["割る数", "割=わ"],
    ["絵を描く", "描=か"],
    ["絵しか描けなくなって", "描=か"],
    ["漫画を描いた", "描=か"],
    ["魚を獲る", "獲=と"],
    ["獲った魚", "獲=と"],
    ["文化が根付いている", "根付=ねづ"],
    ["部屋に籠もる", "籠=こ"],
    ["蝦夷に籠もる旧幕府軍", "籠=こ"],
    ["籠もある", "籠=かご"],
    ["ページの端を折る", "端=はし"],
    ["木の日かげで休む", "日=ひ"],
    ["日やけした", "日=ひ"],
    ["日米の会談", "日=にち"],
    ["法の下の平等", "下=もと"],
    ["球の体積", "球=きゅう"],
    ["球を投げる", "球=たま"],
    ["扇形の面積", "扇形=おうぎがた"],
    ["空所に適する語を入れなさい", "空所=くうしょ"],
    ["三人称単数現在形", "形=けい"],
    ["ハート形", "形=がた"],
    ["同じ条件の下で実験する", "下=もと"],
    ["机の下に隠れる", "下=した"],
    ["大きな木の下で休む", "木=き"],
    ["日米の会談", "米=べい"],
    ["英米の文学", "米=べい"],
    ["米で納める", "米=こめ"],
    ["米が実る", "米=こめ"],
    ["日米で協力する", "米=べい"],
    ["ひとりぼっちの小ぎつね", "小=こ"],
    ["小えだを拾う", "小=こ"],
    ["小の月", "小=しょう"],
    ["夜中に目がさめた", "夜中=よなか"],
    ["一行目の式", "一行=いちぎょう"],
    ["ご一行様", "一行=いっこう"],
    ["一行ずつ読む", "一行=いっこう"],
    ["正しく書きましょう", "正=ただ"],
    ["礼儀正しく", "正=ただ"],
    ["青むらさき色になる", "色=いろ"],
    ["オレンジ色の花", "色=いろ"],
    ["特色がある", "特色=とくしょく"],
    ["き色の花", "色=いろ"],
    ["町のとく色", "色=しょく"],
    ["米や麦をつくる", "米=こめ"],
    ["米と中国の対立", "米=べい"],
    ["ロープを解こう", "解=ほど"],
    ["端から端まで", "端=はし"],
    ["憂いている", "憂=うれ"],
    ["義父の計らいで", "計=はか"],
    ["計三冊", "計=けい"],
    ["にも関らず", "関=かかわ"],
    ["関らが来た", "関=せき"],
    ["一日中雨だった", "雨=あめ"],
    ["三日間雨が続いた", "雨=あめ"],
    ["酸性雨が降る", "雨=う"],
    ["一日中風が強い", "中風=じゅうかぜ"],
    ["中風を患う", "中風=ちゅうぶ"],
    ["力尽くで", "尽=ず"],
    ["数多くの利点", "数=かず"],
    ["一つ上の学年", "上=うえ"],
    ["一つ下の子", "下=した"],
    ["雄の体と雌の体", "雄=おす"],
    ["友人の男達", "男達=おとこたち"],
    ["英語に堪能である", "堪能=たんのう"],
    ["蓮根畑", "蓮根=れんこん"],
    ["音更川の河原では", "河原=かわら"],
    ["右腕を上げる", "右腕=みぎうで"],
    ["和太鼓を打つ", "和太鼓=わだいこ"],
    ["何重にも重ねる", "何重=いくえ"],
    ["一小節だけ", "一小節=いっしょうせつ"],
    ["三小節目", "三小節=さんしょうせつ"],
    ["その間に", "間=あいだ"],
    ["この間の話", "間=あいだ"],
    ["橋の架け替え", "替=か"],
    ["ばね仕掛け", "仕掛=じか"],
    ["祭礼に、吉とされる。", "吉=きち"],
    ["文字化けした", "化=ば"],
    ["飲み水", "水=みず"],
    ["何分かかりますか。", "何分=なんぷん"],
    ["何cmですか", "何=なん"],
    ["何%ですか", "何=なん"],
    ["何℃ですか", "何=なん"],
    ["雪解け水", "水=みず"],
    ["三角形の面積", "三角形=さんかくけい"],
    ["正六角形", "正六角形=せいろっかくけい"],
    ["四角形と五角形", "四角形=しかくけい"],
    ["八角形", "八角形=はっかくけい"],
    ["5角形", "角形=かくけい"],
    ["4角形", "4角形=しかくけい"],
    ["ドアが開く", "開=あ"],
    ["穴が開いている", "開=あ"],
    ["意味を見出せ", "見出=みいだ"],
    ["見出しをつける", "見出=みだ"],
    ["内臓筋が", "筋=きん"],
    ["胸骨筋", "筋=きん"],
    ["堺筋", "筋=すじ"],
    ["送り仮名", "仮名=がな"],
    ["仮名で書く", "仮名=かな"],
    ["合同な図形", "図形=ずけい"],
    ["米作り", "作=づく"],
    ["米作りの仕事", "米=こめ"],
    ["米の生産量", "米=こめ"],
    ["鼻血", "鼻血=はなぢ"],
    ["書く方が好き", "方=ほう"],
    ["話し方が上手", "方=かた"],
    ["長い間", "間=あいだ"],
    ["二重線", "二重=にじゅう"],
    ["万人の自由", "万人=ばんにん"],
    ["一千万人", "一千万人=いっせんまんにん"],
    ["一千円", "一千円=いっせんえん"],
    ["ある種のウイルス", "種=しゅ"],
    ["この種の問題", "種=しゅ"],
    ["その種の話", "種=しゅ"],
    ["着物なんて、年に一回しかきません", "年=ねん"],
    ["儀式などで、年に何度か", "年=ねん"],
    ["年に1回の行事", "年=ねん"],
    ["年に１度", "年=ねん"],
    ["夜な夜な琴を弾かせた", "琴=こと"],
    ["弓道で的に当てる", "的=まと"],
  ])("%s", async (text, expected) => {
    expect(await readingsOf(text)).toContain(expected);
  });
  it.each([
    ["会社に行く", "会社=かいしゃ"],
    ["専門家の", "家=か"],
    ["家に帰る", "家=いえ"],
    ["その他", "他=た"],
    ["食べた後で", "後=あと"],
    ["三万人が", "三万人=さんまんにん"],
    ["千円", "千円=せんえん"],
    ["彼の年に二回", "年=とし"],
    ["種をまく", "種=たね"],
    ["この種は", "種=たね"],
    ["金や銀", "金=きん"],
    ["入学金が必要", "金=きん"],
    ["金の指輪", "金=きん"],
    ["金は熱を伝えやすい", "金=きん"],
    ["金も銀も", "金=きん"],
    ["万人に一人の才能", "万=まん"],
    ["弓の弦", "弦=つる"],
    ["弓に弦を張る", "弦=つる"],
    ["年に数学を", "年=とし"],
    ["年に十分な", "年=とし"],
    ["コップが割れた", "割=わ"],
    ["割れる", "割=わ"],
    ["円を描いて飛ぶ", "描=えが"],
    ["情景を描く", "描=えが"],
    ["河原さん", "河原=かわはら"],
    ["右腕投手", "右腕=うわん"],
    ["二つ目の角", "目=め"],
    ["仕掛けを作る", "仕掛=しか"],
    ["大吉を引く", "大吉=だいきち"],
    ["本を開く", "開=ひら"],
    ["花が開く", "開=ひら"],
    ["地下水と炭酸水", "水=すい"],
    ["何分にもよろしく", "何分=なにぶん"],
    ["何分の何", "何分=なんぶん"],
    ["何分、初めてなので", "何分=なにぶん"],
    ["扉が開かれた", "開=ひら"],
    ["石けん水", "水=すい"],
    ["未来図を描く", "描=えが"],
    ["3ページ目", "目=め"],
    ["ミシン目", "目=め"],
  ])("%s: the rules leave it as it is", async (text, expected) => {
    expect(await readingsOf(text)).toContain(expected);
  });
  it("家 as the analyser's suffix after a kana word stands alone: いえ (むしろ家に)", () => {
    const text = "むしろ家に";
    const toks: Token[] = [
      { start: 0, surface: "むしろ", reading: "ムシロ", pos: "名詞,一般" },
      { start: 3, surface: "家", reading: "カ", pos: "名詞,接尾,一般" },
      { start: 4, surface: "に", reading: "ニ", pos: "助詞,格助詞,一般" },
    ];
    expect(proposeFurigana(text, toks).map((p) => `${p.base}=${p.reading}`)).toEqual(["家=いえ"]);
  });
  // the guards of rules that no dictionary word reaches: each cut by hand as the analyser might, surface/reading/pos
  it.each([
    ["英/エイ/名詞,一般 雄/ユウ/名詞,一般 が/ガ/助詞,格助詞", "雄=ゆう"],
    ["大/ダイ/接頭詞,名詞接続 吉/ヨシ/名詞,固有名詞 と/ト/助詞,並立助詞", "吉=よし"],
    ["衣/コロモ/名詞,一般 替え/ガエ/名詞,接尾,一般", "替=が"],
    ["兵/ヘイ/名詞,一般 十/ジュウ/名詞,数 万/マン/名詞,数", "十万=じゅうまん"],
  ])("%s: the rule leaves it as it came", (cut, expected) => {
    let at = 0;
    const toks: Token[] = cut.split(" ").map((word) => {
      const [surface, reading, pos] = word.split("/") as [string, string, string];
      const t = { start: at, surface, reading, pos };
      at += surface.length;
      return t;
    });
    const text = toks.map((t) => t.surface).join("");
    expect(proposeFurigana(text, toks).map((p) => `${p.base}=${p.reading}`)).toContain(expected);
  });
  // digits: the counter read after the number, over the counter alone unless the number's sound changes; full-width
  // digits are one number, digits after a decimal point or a comma not one of their own; after ん (but 4) voiced
  it.each([
    ["鉛筆が3本", ["鉛筆=えんぴつ", "本=ぼん"]],
    ["1本", ["本=ぽん"]],
    ["10本", ["本=ぽん"]],
    ["3分", ["分=ぷん"]],
    ["2026年", ["年=ねん"]],
    ["12月", ["月=がつ"]],
    ["1日3回", ["日=にち", "回=かい"]],
    ["4時に", ["4時=よじ"]],
    ["4月", ["4月=しがつ"]],
    ["1人で", ["1人=ひとり"]],
    ["20日", ["20日=はつか"]],
    ["4日", ["4日=よっか"]],
    ["1000本", ["本=ぼん"]],
    ["4本", ["本=ほん"]],
    ["１２人", ["人=にん"]],
    ["２０日", ["２０日=はつか"]],
    ["８時３０分", ["時=じ", "分=ぷん"]],
    ["2.2人", ["人=にん"]],
    ["1.5日", ["日=にち"]],
    ["1,001人", ["人=にん"]],
    ["三千本", ["三千本=さんぜんぼん"]],
    ["一万本", ["一万本=いちまんぼん"]],
    ["四本", ["四本=よんほん"]],
    // a counter with more after it in one word: the number's sound changes as before the counter alone
    ["4年生", ["4年生=よねんせい"]],
    ["3年生", ["年生=ねんせい"]],
    ["四年生", ["四年生=よねんせい"]],
    ["4日間", ["4日間=よっかかん"]],
    ["2人組", ["2人組=ふたりぐみ"]],
    ["4時半", ["4時半=よじはん"]],
    ["4人前", ["4人前=よにんまえ"]],
    ["1人前", ["人前=にんまえ"]],
    ["1日中", ["日中=にちじゅう"]],
    // 人用 and a time with 中 after it: the dictionary's じんよう and the suffix ちゅう were read before
    ["1人用のテント", ["1人用=ひとりよう"]],
    ["3人用", ["人用=にんよう"]],
    ["1年中あたたかい", ["年中=ねんじゅう"]],
    ["1晩中", ["1晩中=ひとばんじゅう"]],
    ["20歳の誕生日", ["20歳=はたち", "誕生=たんじょう", "日=び"]],
    ["12歳", ["歳=さい"]],
    ["一晩中", ["一晩中=ひとばんじゅう"]],
  ] as const)("%s", async (text, expected) => {
    expect(await readingsOf(text)).toEqual(expected);
  });
  it("a date: the first of the month ついたち (after a month or before a day of the week in brackets), and that day read as a day", async () => {
    expect(await readingsOf("2026年4月1日（水）")).toEqual(["年=ねん", "4月=しがつ", "1日=ついたち", "水=すい"]);
    expect(await readingsOf("12月1日(火)")).toContain("火=か");
    expect(await readingsOf("十二月一日に")).toEqual(["十二月=じゅうにがつ", "一日=ついたち"]);
    expect(await readingsOf("一日に三回")).toContain("一日=いちにち");
    // with no month, a day of the week in brackets says it is a date
    expect(await readingsOf("1日（水）に")).toEqual(["1日=ついたち", "水=すい"]);
    expect(await readingsOf("一日(月)")).toEqual(["一日=ついたち", "月=げつ"]);
    expect(await readingsOf("1日に3回")).toContain("日=にち");
  });
  it("the syllables of a haiku or tanka: 七 read しち (五七五, 五・七・五, 五七五七七); a number alone keeps なな", async () => {
    expect(await readingsOf("五七五のリズム")).toEqual(["五=ご", "七=しち", "五=ご"]);
    expect(await readingsOf("五・七・五")).toEqual(["五=ご", "七=しち", "五=ご"]);
    expect(await readingsOf("五七五七七")).toEqual(["五=ご", "七=しち", "五=ご", "七=しち", "七=しち"]);
    expect(await readingsOf("五十七")).toEqual(["五十七=ごじゅうなな"]);
  });
  it("days of the week in a list: 月・水・金 げつ・すい・きん; a day alone keeps its word's reading", async () => {
    expect(await readingsOf("月・水・金")).toEqual(["月=げつ", "水=すい", "金=きん"]);
    expect(await readingsOf("土・日")).toEqual(["土=ど", "日=にち"]);
    expect(await readingsOf("水を飲む")).toContain("水=みず");
    expect(await readingsOf("（水）")).toEqual(["水=みず"]);
    expect(await readingsOf("月、水、金")).toEqual(["月=げつ", "水=すい", "金=きん"]);
    expect(await readingsOf("月〜金")).toEqual(["月=げつ", "金=きん"]);
    expect(await readingsOf("毎週月・水曜日")).toContain("月=げつ");
    expect(await readingsOf("火・金曜日")).toContain("火=か");
    expect(await readingsOf("12月24日（日）")).toContain("日=にち");
  });
  it("a counter written in kana after a number in kanji or 何, as the lower grades write one not yet learned", async () => {
    expect(await readingsOf("一ぽんのえんぴつ")).toEqual(["一=いっ"]);
    expect(await readingsOf("ねこが六ぴき")).toEqual(["六=ろっ"]);
    expect(await readingsOf("百ぴきのありがいる")).toEqual(["百=ひゃっ"]);
    expect(await readingsOf("八さいです")).toEqual(["八=はっ"]);
    expect(await readingsOf("りんごを一こ、二こ")).toEqual(["一=いっ", "二=に"]);
    expect(await readingsOf("四じにかえる")).toEqual(["四=よ"]);
    expect(await readingsOf("九じ")).toEqual(["九=く"]);
    expect(await readingsOf("七じはん")).toEqual(["七=しち"]);
    expect(await readingsOf("一かいめ")).toEqual(["一=いっ"]);
    // kana no counter of the list ends with, or two counters read apart (一ばん: 番 いち, 晩 ひと), keep the number's
    expect(await readingsOf("一ばんになる")).toEqual(["一=いち"]);
    expect(await readingsOf("十の位")).toContain("十=じゅう");
    expect(await readingsOf("二つ")).toEqual(["二=ふた"]);
    expect(await readingsOf("何まいありますか")).toEqual(["何=なん"]);
    expect(await readingsOf("何ぼんですか")).toEqual(["何=なん"]);
    expect(await readingsOf("いま何じですか")).toEqual(["何=なん"]);
    expect(await readingsOf("何ぷんかかりますか")).toEqual(["何=なん"]);
    expect(await readingsOf("何がすき")).toEqual(["何=なに"]);
    expect(await readingsOf("何かいいこと")).toEqual(["何=なに"]);
    // 回り, as 通り, reads 1 and 2 in the native way (一まわり ひと, 二回り ふた)
    expect(await readingsOf("一まわり大きい")).toContain("一=ひと");
    expect(await readingsOf("二回りした")).toEqual(["二回=ふたまわ"]);
    // 目 in kana after the counter: as before the counter alone (何かいめ 何回目 なん)
    expect(await readingsOf("何かいめですか")).toEqual(["何=なん"]);
    expect(await readingsOf("何かめずらしいもの")).toEqual(["何=なに"]);
  });
  it("何 before に: なにに (何にする, 何になりたい), but 何にも なんにも and 何にん (a counter) なん", async () => {
    expect(await readingsOf("何にする")).toEqual(["何=なに"]);
    expect(await readingsOf("大きくなったら何になりたい")).toContain("何=なに");
    expect(await readingsOf("何に使う")).toContain("何=なに");
    expect(await readingsOf("何にもない")).toEqual(["何=なん"]);
    expect(await readingsOf("何にもつをいれる")).toEqual(["何=なに"]);
    expect(await readingsOf("何にもっとつかう")).toEqual(["何=なに"]);
    expect(await readingsOf("何にんいますか")).toEqual(["何=なん"]);
    expect(await readingsOf("何の花")).toContain("何=なん");
  });
  it("a day written half in kana, as the first grade writes it before 曜: 月よう日 げつ, 日よう日 にち", async () => {
    expect(await readingsOf("きょうは月よう日です")).toEqual(["月=げつ", "日=び"]);
    expect(await readingsOf("火よう日と水よう日")).toEqual(["火=か", "日=び", "水=すい", "日=び"]);
    expect(await readingsOf("木ようびにあそぶ")).toEqual(["木=もく"]);
    expect(await readingsOf("土よう日、日よう日は休み")).toEqual(["土=ど", "日=び", "日=にち", "日=び", "休=やす"]);
    expect(await readingsOf("金よう日")).toEqual(["金=きん", "日=び"]);
    expect(await readingsOf("きょうは何ようびですか")).toEqual(["何=なん"]);
    expect(await readingsOf("何よう日")).toEqual(["何=なん", "日=び"]);
    // よう after a kanji before anything else is not the day's: 日よう品, 水ようかん (水羊羹)
    expect(await readingsOf("水ようかんを食べる")).toContain("水=みず");
  });
  it("a list that is not of days keeps its words: 水・土・日光, 火・水・風・土, 火・水, 日・月・星", async () => {
    expect(await readingsOf("水・土・日光が必要")).toEqual(expect.arrayContaining(["水=みず", "土=ど"]));
    expect(await readingsOf("火・水・風・土")).toEqual(expect.arrayContaining(["火=ひ", "水=みず"]));
    expect(await readingsOf("火・水")).toEqual(["火=ひ", "水=みず"]);
    expect(await readingsOf("日・月・星を")).toContain("月=つき");
  });
  it("a word of the dictionary that only looks like a number keeps its reading (四六時中, 万一)", async () => {
    expect(await readingsOf("四六時中")).toEqual(["四六時中=しろくじちゅう"]);
    expect(await readingsOf("万一")).toEqual(["万一=まんいち"]);
  });
  it("numbers and counters read by rule", () => {
    expect(numberReading(10_000)).toBe("いちまん");
    expect(numberReading(1_800)).toBe("せんはっぴゃく");
    expect(numberValue("二〇二六")).toBe(2026);
    expect(countReading(100, "本")).toBe("ひゃっぽん");
    expect(countReading(3, "杯")).toBe("さんばい");
    expect(countReading(-1, "本")).toBe("なんぼん");
    expect(countReading(3, "階")).toBe("さんがい");
    expect(countReading(-1, "階")).toBe("なんがい");
    expect(countReading(3, "足")).toBe("さんぞく");
    expect(countReading(1, "組")).toBe("いちくみ");
    expect(countReading(8, "組")).toBe("はちくみ");
    expect(countReading(1, "冊")).toBe("いっさつ");
  });
  it("every counter with every kind of number reads as kana", () => {
    const numbers = [-1, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 100, 1000, 10_000];
    const wrong = Object.keys(COUNTERS).flatMap((c) =>
      numbers.map((n) => [c, n, countReading(n, c)] as const).filter(([, , r]) => !r || !isKana(r)),
    );
    expect(wrong).toEqual([]);
  });
  it("a kanji read natively between two Sino-Japanese words it is joined to takes its on reading, marked to check", async () => {
    const marks = async (text: string) =>
      proposeFurigana(text, await tokenizeMarkup(text)).map((p) => `${p.base}=${p.reading}${p.check ? "?" : ""}`);
    // 無|翼|人種, 三|卵|性: the analyser's つばさ and たまご inside a compound neither dictionary has
    expect(await marks("無翼人種")).toContain("翼=よく?");
    expect(await marks("三卵性")).toContain("卵=らん?");
    // the dictionary's suffix (学校|側) and a kanji not inside a compound (の卵が) keep the dictionary's reading
    expect(await marks("学校側")).toContain("側=がわ?");
    expect(await marks("にわとりの卵が")).toContain("卵=たまご");
  });
  it("an angle named by its letters is かく, where the analyser took 角 for a name (すみ): read by rule, unmarked", async () => {
    const marks = async (text: string) =>
      proposeFurigana(text, await tokenizeMarkup(text)).map((p) => `${p.base}=${p.reading}${p.check ? "?" : ""}`);
    expect(await marks("角Aの大きさ")).toContain("角=かく");
    expect(await marks("角ＡＢＣは")).toContain("角=かく");
  });
  it.each([
    ["たくさんの金がかかります", "金=かね?"],
    ["身体が運動を必要とする", "身体=からだ?"],
    ["弦を押さえる", "弦=げん?"],
    ["我を忘れて", "我=われ?"],
    ["我ながら腹が立った", "我=われ?"],
    ["我の強い人", "我=が?"],
    ["我を張る", "我=が?"],
    ["我を通す", "我=が?"],
    ["金が欲しい", "金=かね?"],
    ["金・銀・銅", "金=きん?"],
    ["十月十日は運動会です", "十月十日=じゅうがつとおか?"],
  ])("%s: one of two common readings, marked to check", async (text, expected) => {
    const marks = proposeFurigana(text, await tokenizeMarkup(text)).map(
      (p) => `${p.base}=${p.reading}${p.check ? "?" : ""}`,
    );
    expect(marks).toContain(expected);
  });
});

describe("a reading that is not kana is never proposed", () => {
  it("the analyser's * or latin reading gives no proposal; a roster reading in latin neither", () => {
    const text = "漢字と山田";
    const toks = tokens([
      ["漢字", "*"],
      ["と", "ト"],
      ["山田", "yamada"],
    ]);
    expect(proposeFurigana(text, toks)).toEqual([]);
    const roster = nameEntries([{ name: "山田", nameKana: "Yamada" }]);
    expect(proposeFurigana(text, toks, roster)).toEqual([]);
  });
  it("every proposal's reading is hiragana: a text through the analyser", async () => {
    const text = "東京タワーでＡＢＣ社の田中一郎さんと三人で2026年に会った。𠮷野家";
    for (const p of proposeFurigana(text, await tokenizeMarkup(text)))
      expect(p.reading).toMatch(/^[\u3041-\u3096ー]+$/u);
  });
  it("property: whatever the analyser and the roster say, every proposal's reading is hiragana", () => {
    const piece = fc.constantFrom(
      "一",
      "三",
      "六",
      "百",
      "何",
      "本",
      "日",
      "隻",
      "家",
      "会社",
      "後",
      "日本",
      "漢字",
      "の",
      "に",
      "ア",
      "A",
      "1",
      "*",
      "|",
      "(",
    );
    const reading = fc.oneof(
      fc.constant(null),
      fc.constantFrom("*", "", "yamada", "カ", "ニッポン", "ホン", "ゴ", "ジ", "ー", "ヴ"),
      fc.string({ maxLength: 6 }),
    );
    const pos = fc.constantFrom(
      undefined,
      "名詞,数",
      "名詞,接尾,助数詞",
      "名詞,接尾,一般",
      "名詞,固有名詞,人名",
      "名詞,一般",
      "助詞",
    );
    const analysed = fc.array(fc.tuple(piece, reading, pos, fc.boolean()), { maxLength: 12 }).map((words) => {
      let at = 0;
      const toks: Token[] = words.map(([surface, r, p, unknown]) => {
        const t = { start: at, surface, reading: r, pos: p, unknown };
        at += surface.length;
        return t;
      });
      return { text: words.map((w) => w[0]).join(""), toks };
    });
    const roster = fc.array(fc.record({ name: fc.constantFrom("山田 花子", "日本", "一本"), nameKana: reading }), {
      maxLength: 3,
    });
    fc.assert(
      fc.property(analysed, roster, ({ text, toks }, rows) => {
        for (const p of proposeFurigana(text, toks, nameEntries(rows)))
          expect(p.reading).toMatch(/^[\u3041-\u3096ー]+$/u);
      }),
    );
  });
});

describe("the proposals the analyser guessed are marked for the teacher", () => {
  it("unknown words, proper nouns, prefixes and suffixes: check; a common word and a counter read by rule: no mark", async () => {
    // (東京, a place of the curriculum, is unmarked: furigana-places.ts)
    const text = "田中さんは渋谷の小学校で三本の鉛筆と御茶を買った。";
    const marks = Object.fromEntries(proposeFurigana(text, await tokenizeMarkup(text)).map((p) => [p.base, p.check]));
    expect(marks).toMatchObject({ 田中: true, 渋谷: true, 小学校: false, 三本: false, 鉛筆: false, 買: false });
    const unknown = proposeFurigana("𥝱", [{ start: 0, surface: "𥝱", reading: "ジョ", unknown: true }]);
    expect(unknown.map((p) => p.check)).toEqual([true]);
  });
  it("a count's ordinal, coin and note, and the prefixes and suffixes with one reading are not marked; others are", async () => {
    const marked = async (text: string) =>
      proposeFurigana(text, await tokenizeMarkup(text)).map((p) => `${p.base}=${p.reading}${p.check ? "?" : ""}`);
    expect(await marked("3人目と一人目")).toEqual(["人=にん", "目=め", "一人=ひとり", "目=め"]);
    expect(await marked("2回目の5ページ目")).toEqual(["回=かい", "目=め", "目=め"]);
    expect(await marked("二つ目の三日目")).toEqual(["二=ふた", "目=め", "三日=みっか", "目=め"]);
    expect(await marked("百円玉と一万円札")).toEqual(["百円玉=ひゃくえんだま", "一万円札=いちまんえんさつ"]);
    expect(await marked("第1問は約3倍")).toEqual(["第=だい", "問=もん", "約=やく", "倍=ばい"]);
    expect(await marked("大問題")).toContain("大=だい?");
    expect(await marked("科学的な安全性")).toEqual(["科学=かがく", "的=てき", "安全=あんぜん", "性=せい"]);
    expect(await marked("私達の作用点")).toEqual(["私=わたし", "達=たち", "作用=さよう", "点=てん"]);
    expect(await marked("電流計と電圧計")).toEqual(["電流=でんりゅう", "計=けい", "電圧=でんあつ", "計=けい"]);
    expect(await marked("旧校舎と同学年")).toEqual(["旧=きゅう", "校舎=こうしゃ", "同=どう", "学年=がくねん"]);
    expect(await marked("度数分布表の中央値")).toEqual([
      "度数=どすう",
      "分布=ぶんぷ",
      "表=ひょう",
      "中央=ちゅうおう",
      "値=ち",
    ]);
    expect(await marked("展開図と同位角")).toEqual(["展開=てんかい", "図=ず", "同位=どうい", "角=かく"]);
    expect(await marked("連絡帳と比較級")).toEqual(["連絡=れんらく", "帳=ちょう", "比較=ひかく", "級=きゅう"]);
    expect(await marked("電解質の発熱量")).toEqual(["電解=でんかい", "質=しつ", "発熱=はつねつ", "量=りょう"]);
    expect(await marked("単子葉類と同位体")).toEqual(["単=たん", "子葉=しよう", "類=るい", "同位=どうい", "体=たい"]);
    expect(await marked("研究者")).toContain("者=しゃ?");
  });
  it("a suffix, prefix or name a rule read from its neighbours is not marked; the dictionary's guess beside it is", async () => {
    // proposals(): base=reading, ? when marked (below)
    expect(await proposals("一日中雨だった")).toEqual(["一日中=いちにちじゅう", "雨=あめ"]);
    expect(await proposals("酸性雨")).toEqual(["酸性=さんせい", "雨=う?"]);
    expect(await proposals("にも関らず")).toEqual(["関=かかわ"]);
    expect(await proposals("関らが来た")).toEqual(["関=せき?", "来=き"]);
    expect(await proposals("たくさんの金がかかります")).toContain("金=かね?");
    // one line or a party: the analyser's いっこう, marked; 一行目 is sure
    expect(await proposals("一行ずつ読む")).toContain("一行=いっこう?");
    expect(await proposals("プリンプリン一行の危機")).toContain("一行=いっこう?");
    expect(await proposals("一行目の式")).toContain("一行=いちぎょう");
  });
});

/** The proposals for `text` as `base=reading`, `?` when marked, the source when not the dictionary. */
const proposals = async (text: string, words: { base: string; reading: string }[] = [], roster = nameEntries([])) =>
  proposeFurigana(text, await tokenizeMarkup(text), roster, words).map(
    (p) => `${p.base}=${p.reading}${p.check ? "?" : ""}${p.source === "dictionary" ? "" : ` (${p.source})`}`,
  );

describe("the people the curriculum names (sixth-grade 社会)", () => {
  it("are read as the textbooks read them, unmarked, where the analyser guessed (卑弥呼 ひめこ, 小野|妹|子)", async () => {
    expect(await proposals("卑弥呼は")).toEqual(["卑弥呼=ひみこ"]);
    expect(await proposals("小野妹子が")).toEqual(["小野=おのの", "妹子=いもこ"]);
    expect(await proposals("本居宣長")).toEqual(["本居=もとおり", "宣長=のりなが"]);
    expect(await proposals("伊能忠敬の地図")).toContain("忠敬=ただたか");
    expect(await proposals("源頼朝と源義経")).toEqual([
      "源=みなもとの",
      "頼朝=よりとも",
      "源=みなもとの",
      "義経=よしつね",
    ]);
  });
  it("a part alone keeps the dictionary's guess, marked; a one-word name is not found inside another word", async () => {
    expect(await proposals("源さん")).toEqual(["源=みなもと?"]);
    expect(await proposals("工事進行基準")).not.toContain("行基=ぎょうき");
  });
  it("the school's own reading and a roster name come first", async () => {
    expect(await proposals("卑弥呼は", [{ base: "卑弥呼", reading: "ひめこ" }])).toEqual(["卑弥呼=ひめこ (school)"]);
    const roster = nameEntries([{ name: "徳川 家康", nameKana: "とくがわ いえやす" }]);
    expect(await proposals("徳川家康", [], roster)).toEqual(["徳川=とくがわ (roster)", "家康=いえやす (roster)"]);
  });
});

describe("the authors, works and characters of the 国語 textbooks", () => {
  it("are read as the textbooks read them, unmarked, where the analyser misread or guessed", async () => {
    expect(await proposals("森鷗外と樋口一葉")).toEqual(["森=もり", "鷗外=おうがい", "樋口=ひぐち", "一葉=いちよう"]);
    expect(await proposals("杜甫の春望")).toEqual(["杜甫=とほ", "春望=しゅんぼう"]);
    expect(await proposals("兵十は、くりをもらった。")).toEqual(["兵十=ひょうじゅう"]);
    expect(await proposals("大造じいさんとガン")).toEqual(["大造=だいぞう"]);
    expect(await proposals("松尾芭蕉のおくのほそ道")).toEqual(["松尾=まつお", "芭蕉=ばしょう", "道=みち"]);
    expect(await proposals("鴨長明の方丈記")).toEqual(["鴨=かもの", "長明=ちょうめい", "方丈記=ほうじょうき"]);
    expect(await proposals("古池や蛙飛びこむ")).toEqual(["古池=ふるいけ", "蛙飛=かわずと"]);
    expect(await proposals("古池や\n蛙飛び込む\n水の音")).toContain("蛙飛=かわずと");
    expect(await proposals("蛙が鳴く")).toContain("蛙=かえる");
    expect(await proposals("日暮らし硯に向かひて")).toContain("日暮=ひぐ");
    expect(await proposals("祇園精舎の鐘の声")).toContain("祇園精舎=ぎおんしょうじゃ");
    expect(await proposals("月日は百代の過客にして")).toContain("百代=はくたい");
    expect(await proposals("亦説ばしからずや")).toContain("説=よろこ");
    expect(await proposals("夏草や兵どもが夢の跡")).toContain("兵=つわもの");
    expect(await proposals("兵を集める")).toContain("兵=へい");
  });
  it("a roster's name and the school's word win; a one-word name inside another word is not read from the list", async () => {
    expect(await proposals("大造", [{ base: "大造", reading: "たいぞう" }])).toEqual(["大造=たいぞう (school)"]);
    expect(await proposals("大造船所")).not.toContain("大造=だいぞう");
  });
});

describe("the land and history 社会 names (fifth-grade 国土, sixth-grade and 中学校 歴史)", () => {
  it("are read as the textbooks read them, unmarked, where the analyser marked or misread them", async () => {
    expect(await proposals("江戸時代と明治維新")).toEqual(["江戸時代=えどじだい", "明治維新=めいじいしん"]);
    expect(await proposals("江戸幕府を開いた")).toEqual(["江戸=えど", "幕府=ばくふ", "開=ひら"]);
    expect(await proposals("十七条の憲法と承久の乱")).toEqual([
      "十七条=じゅうしちじょう",
      "憲法=けんぽう",
      "承久=じょうきゅう",
      "乱=らん",
    ]);
    expect(await proposals("中尊寺金色堂と鹿鳴館")).toEqual([
      "中尊寺金色堂=ちゅうそんじこんじきどう",
      "鹿鳴館=ろくめいかん",
    ]);
    expect(await proposals("北上高地と佐渡島")).toEqual(["北上高地=きたかみこうち", "佐渡島=さどがしま"]);
    expect(await proposals("関ヶ原の戦い")).toEqual(["関ヶ原=せきがはら", "戦=たたか"]);
    expect(await proposals("信濃川と琵琶湖と太平洋")).toEqual([
      "信濃川=しなのがわ",
      "琵琶湖=びわこ",
      "太平洋=たいへいよう",
    ]);
    expect(await proposals("山陰地方")).toEqual(["山陰地方=さんいんちほう"]);
    expect(await proposals("日本の首都")).toEqual(["日本=にほん", "首都=しゅと"]);
  });
  it("a word alone that is another word keeps the analyser's reading (山陰 a mountain's shade); 大正解 is not an era", async () => {
    expect(await proposals("山陰に隠れる")).toContain("山陰=やまかげ");
    expect(await proposals("大正解")).toContain("正解=せいかい");
  });
});

describe("the terms of 理科 and 数学 the analyser cuts into words read alone", () => {
  it("are read as the textbooks read them, unmarked", async () => {
    expect(await proposals("陽イオンと陰イオン")).toEqual(["陽=よう", "陰=いん"]);
    expect(await proposals("日周運動と年周運動")).toEqual([
      "日周運動=にっしゅううんどう",
      "年周運動=ねんしゅううんどう",
    ]);
    expect(await proposals("円柱の底面積")).toEqual(["円柱=えんちゅう", "底面積=ていめんせき"]);
    expect(await proposals("衆議院と参議院")).toEqual(["衆議院=しゅうぎいん", "参議院=さんぎいん"]);
    expect(await proposals("ヨウ素液で調べる")).toContain("素=そ");
    expect(await proposals("雨温図から読み取る")).toContain("雨温図=うおんず");
  });
  it("so are the lower grades' words written half in kana, and 九九", async () => {
    expect(await proposals("こん虫の体")).toContain("虫=ちゅう");
    expect(await proposals("たて物や土地")).toContain("物=もの");
    expect(await proposals("かけ算九九")).toContain("九九=くく");
    expect(await proposals("一行日記を書こう")).toContain("一行日記=いちぎょうにっき");
    expect(await proposals("虫の体")).toContain("虫=むし");
    expect(await proposals("じどう車くらべ")).toEqual(["車=しゃ"]);
    expect(await proposals("よう虫がさなぎになる")).toEqual(["虫=ちゅう"]);
    expect(await proposals("じ石にくっつく")).toEqual(["石=しゃく"]);
    expect(await proposals("車にのる")).toEqual(["車=くるま"]);
  });
  it("a word they hold, alone, keeps the analyser's reading (陽が昇る ひ, 底 そこ)", async () => {
    expect(await proposals("陽が昇る")).toContain("陽=ひ");
    expect(await proposals("底が深い")).toContain("底=そこ");
  });
});

describe("words written half in kana (交ぜ書き), as lower-grade texts write a kanji the class has not learned", () => {
  it("read the kanji shown as the whole word reads them, unmarked", async () => {
    expect(await proposals("家ぞくで出かけた")).toContain("家=か");
    expect(await proposals("体いくかんに集まる")).toContain("体=たい");
    expect(await proposals("市やく所に行く")).toEqual(["市=し", "所=しょ", "行=い"]);
    expect(await proposals("音がくの時間")).toContain("音=おん");
    expect(await proposals("公えんであそぶ")).toEqual(["公=こう"]);
    expect(await proposals("花だんに水をやる")).toContain("花=か");
    expect(await proposals("水ぞくかんへ行く")).toContain("水=すい");
    expect(await proposals("学きゅう会をひらく")).toContain("学=がっ");
    expect(await proposals("名まえを書く")).toContain("名=な");
    expect(await proposals("家ぞくのしごと")).toContain("家=か");
    expect(await proposals("人まえで話す")).toContain("人=ひと?");
  });
  it("a number in kanji starts one too (一しょに 一緒, 一しゅん 一瞬, 四かく 四角, 七ふくじん 七福神)", async () => {
    expect(await proposals("一しょにあそぼう")).toEqual(["一=いっ"]);
    expect(await proposals("一しゅんのこと")).toEqual(["一=いっ"]);
    expect(await proposals("一せいにはしる")).toEqual(["一=いっ"]);
    expect(await proposals("四かくをかく")).toEqual(["四=し"]);
    expect(await proposals("七ふくじん")).toEqual(["七=しち"]);
    // of the dictionary's readings (十回 じっかい, じゅっかい), the one keeping most of the analyser's (じゅう)
    expect(await proposals("十かいとぶ")).toEqual(["十=じゅっ?"]);
    // the last numeral of a number is not a word's start: 二十 stays one number before its counter
    expect(await proposals("二十さいになる")).toEqual([expect.stringMatching(/^二十=/)]);
    expect(await proposals("三十ぷんです")).toEqual([expect.stringMatching(/^三十=/)]);
  });
  it("kana the analyser cut as a particle before a small kana, or took into a word it does not know (牛に|ゅうをのむ)", async () => {
    expect(await proposals("きゅう食の牛にゅう")).toContain("牛=ぎゅう");
    expect(await proposals("牛にゅうをのみました")).toEqual(["牛=ぎゅう"]);
    expect(await proposals("名しゅをのむ")).toEqual(["名=めい"]);
    // に before anything else stays the particle
    expect(await proposals("牛にのる")).toEqual(["牛=うし"]);
  });
  it("the last kana may be the hidden kanji's okurigana (上ばき 上履き, 大いそぎ 大急ぎ, 前むき 前向き, 後もどり 後戻り)", async () => {
    expect(await proposals("上ばきをはく")).toEqual(["上=うわ"]);
    expect(await proposals("大いそぎで帰る")).toContain("大=おお");
    expect(await proposals("前むきに考える")).toContain("前=まえ");
    expect(await proposals("後もどりはできない")).toContain("後=あと");
    // ば after a noun (a conditional ending follows a verb) is no particle; a particle is never the okurigana
    expect(await proposals("雨がふれば行かない")).toContain("雨=あめ");
    expect(await proposals("父ならば行く")).toContain("父=ちち");
    expect(await proposals("山ばかりだ")).toEqual(["山=やま"]);
  });
  it("one kana after one kanji, when a case particle or の follows (日きを, 事こに, 国ごの)", async () => {
    expect(await proposals("夏休みの日きを書いた")).toContain("日=にっ");
    expect(await proposals("事こにあわないように")).toContain("事=じ");
    expect(await proposals("国ごの時間")).toContain("国=こく");
    expect(await proposals("夏休みの日きのしゅくだい")).toContain("日=にっ");
    // one kana before anything else is a word of its own as often: その日(ひ)きた (来た), 日きょう
    expect(await proposals("その日きた人")).toContain("日=ひ");
    expect(await proposals("雨の日もある")).toContain("日=ひ");
  });
  it("そう after a noun may be the analyser's 様態 cut from an adjective (強そう): 体そう is read, marked", async () => {
    expect(await proposals("体そうをする")).toContain("体=たい?");
  });
  it("kana that are a particle, an ending or the rest of a name hide no kanji (山がある, した家, 中から, 砂ぼうず)", async () => {
    expect(await proposals("山がある")).toEqual(["山=やま"]);
    expect(await proposals("人がいる")).toEqual(["人=ひと"]);
    expect(await proposals("屋根が破損した家は")).toContain("家=いえ");
    expect(await proposals("来たい人は誰でも")).toContain("人=ひと");
    expect(await proposals("妻が着ていたドレス")).toContain("着=き");
    expect(await proposals("衝突した物もある")).toContain("物=もの");
    expect(await proposals("灰の中から生まれる")).toContain("中=なか");
    expect(await proposals("披針形から心形まで")).toContain("心=こころ");
    expect(await proposals("砂ぼうずに伝授した")).toContain("砂=すな");
    // kana before a kanji are a word of their own as often as a hidden kanji: never tried
    expect(await proposals("きょう雨がふった")).toContain("雨=あめ");
    expect(await proposals("もう目がさめた")).toContain("目=め");
    expect(await proposals("はい色のねこ")).toContain("色=いろ");
    // kana before the kanji shown belong to another word (紋白蝶), and a noun of する takes its forms
    expect(await proposals("もん白ちょう")).toContain("白=しろ");
    expect(await proposals("発表しよう")).toContain("発表=はっぴょう");
  });
});

describe("the places the curriculum names (the prefectures, fourth-grade 社会, and their capitals)", () => {
  it("are read unmarked with their suffix, where the analyser marked the name and the suffix (青森(あおもり)? 県(けん)?)", async () => {
    expect(await proposals("青森県のりんご")).toEqual(["青森県=あおもりけん"]);
    expect(await proposals("北海道と沖縄県")).toEqual(["北海道=ほっかいどう", "沖縄県=おきなわけん"]);
    expect(await proposals("京都府と大阪府")).toEqual(["京都府=きょうとふ", "大阪府=おおさかふ"]);
    expect(await proposals("県庁所在地は札幌市")).toContain("札幌市=さっぽろし");
    expect(await proposals("東京の小学校")).toContain("東京=とうきょう");
  });
  it("a name alone that can be another word keeps the analyser's reading (大分 だいぶ, 三重 marked); the school's word comes first", async () => {
    expect(await proposals("大分疲れた")).toContain("大分=だいぶ");
    expect(await proposals("大分県")).toEqual(["大分県=おおいたけん"]);
    expect(await proposals("三重の塔")).toContain("三重=みえ?");
    expect(await proposals("青森県", [{ base: "青森県", reading: "あをもりけん" }])).toEqual([
      "青森県=あをもりけん (school)",
    ]);
  });
});
