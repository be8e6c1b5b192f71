import { readFileSync } from "node:fs";
import { toHiragana } from "@/features/activities/shared/furigana-align";
import type { Proposal } from "@/features/activities/shared/furigana-propose";

/** One sentence of the corpus: its text and its reading in kana, as the corpus writes them. */
export interface CorpusSentence {
  id: string;
  text: string;
  kana: string;
}

export function readCorpus(file: "dev.tsv" | "held-out.tsv" | "held-out-2.tsv"): CorpusSentence[] {
  return readFileSync(new URL(file, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [id, text, kana] = line.split("\t");
      return { id: id!, text: text!, kana: kana! };
    });
}

const VOWEL: Record<string, string> = {};
for (const [vowel, row] of [
  ["あ", "あかさたなはまやらわがざだばぱぁゃゎ"],
  ["い", "いきしちにひみりぎじぢびぴぃ"],
  ["う", "うくすつぬふむゆるぐずづぶぷぅゅゔ"],
  ["え", "えけせてねへめれげぜでべぺぇ"],
  ["お", "おこそとのほもよろをごぞどぼぽぉょ"],
] as const)
  for (const c of row) VOWEL[c] = vowel;

/** Kana only, in hiragana, with the corpus's spellings of sounds folded: は/へ/を/ぢ/づ as わ/え/お/じ/ず, ー as the vowel it lengthens, ゆう as いう. */
function folded(reading: string): string {
  const kana = toHiragana(reading)
    .replace(/[^\u3041-\u3096ー]/g, "")
    .replace(/[はへをぢづ]/g, (c) => ({ は: "わ", へ: "え", を: "お", ぢ: "じ", づ: "ず" })[c]!);
  let out = "";
  for (const c of kana) out += c === "ー" ? (VOWEL[out.at(-1) ?? ""] ?? c) : c;
  return out.replaceAll("ゆう", "いう");
}

export const spokenCorpus = (kana: string) => folded(kana);

/**
 * The corpus (jsut-label) writes what a speaker says (とーきょー, 停戦 てーせん, the particle は as わ, を as
 * お, 言う as ゆー), the dictionary how a word is spelled (とうきょう); and it is not consistent (構成 こおせい,
 * 姫 ひめい beside 先生 せんせー). Both sides are folded (folded()); then a piece (a proposed reading, or a
 * stretch of the text's own kana) matches the corpus at `pos` when each of its kana is the corpus's, or is a
 * long vowel the corpus writes as the vowel it lengthens: a う after an o or u sound read as お or う, and, in
 * a reading of kanji, an い after an e sound read as え (the text's kana ていた stay ていた). Only inside one
 * piece, since the corpus lengthens inside a word and not across words (て|行く is ていく). The end of the
 * match, or -1.
 */
export function matchPiece(piece: string, kanji: boolean, corpus: string, pos: number): number {
  if (pos + piece.length > corpus.length) return -1;
  for (let k = 0; k < piece.length; k++) {
    const c = piece[k]!;
    const d = corpus[pos + k]!;
    if (c === d) continue;
    const before = k > 0 ? VOWEL[piece[k - 1]!] : undefined;
    if (c === "う" && before === "お" && d === "お") continue;
    if (c === "い" && kanji && before === "え" && d === "え") continue;
    return -1;
  }
  return pos + piece.length;
}

/** Runs of characters carrying a reading (kanji, 々, ヶ: the ruby's own set). */
const RUBY_RUN = /[\p{Script=Han}々〆ヶヵ]+/gu;
/** A kanji is read with at most this many kana (承 うけたまわ is 5). */
const MAX_PER_KANJI = 6;

export interface SentenceScore {
  /** kanji runs in the sentence, and those whose proposed reading is the corpus's */
  words: number;
  right: number;
  /** false when the sentence's kana do not line up with the corpus reading at all (not counted) */
  aligned: boolean;
  wrong: { base: string; proposed: string | null }[];
}

/** A stretch of the text's kana, or a kanji run with the forms of its proposed reading (none: no reading), folded. */
type Piece = { kind: "kana"; forms: string[] } | { kind: "run"; forms: string[]; length: number };

/** Where `piece` read as proposed may end when it starts at `pos` in the corpus reading: one end per form that fits. */
const matchEnds = (piece: Piece, corpus: string, pos: number) =>
  piece.forms.map((f) => matchPiece(f, piece.kind === "run", corpus, pos)).filter((end) => end >= 0);

/**
 * Words with two readings that are both right where they stand, that a teacher accepts either of, and that the
 * corpus itself writes both ways: 日本 にほん / にっぽん (the development part reads 日本経済 にっぽんけーざい, the
 * held-out part 日本代表 にほんだいひょー); 後 standing alone あと / のち (切った後は: the corpus says のち, the
 * proposer あと); 他 standing alone ほか / た (その他 そのほか and そのた); 良 in 良い よい / いい. A run's proposed reading holding one of
 * them (日本 anywhere in the run, the others only as the whole run) also counts in the other form.
 */
const BOTH_RIGHT: { word: string; alone: boolean; readings: [string, string] }[] = [
  { word: "日本", alone: false, readings: ["にほん", "にっぽん"] },
  { word: "後", alone: true, readings: ["あと", "のち"] },
  { word: "他", alone: true, readings: ["ほか", "た"] },
  { word: "良", alone: true, readings: ["よ", "い"] },
];

function runForms(base: string, reading: string): string[] {
  const forms = [reading];
  for (const { word, alone, readings } of BOTH_RIGHT) {
    if (alone ? base !== word : !base.includes(word)) continue;
    for (const [one, other] of [readings, [...readings].reverse()])
      if (reading.includes(one!)) forms.push(reading.replace(one!, other!));
  }
  return forms.map(folded);
}

/** The proposed reading of each run: the proposals that tile it, in order; null when one is missing or reaches past it. */
function proposedReadings(runs: { start: number; end: number }[], proposals: Proposal[]): (string | null)[] {
  return runs.map((run) => {
    const inside = proposals.filter((p) => p.start < run.end && run.start < p.end);
    let at = run.start;
    let reading = "";
    for (const p of inside) {
      if (p.start !== at || p.end > run.end) return null;
      reading += p.reading;
      at = p.end;
    }
    return at === run.end ? reading : null;
  });
}

/**
 * How right the proposals for one sentence are. The unit is a run of kanji between kana or punctuation
 * (what one ruby group covers: 停戦会談, 食 in 食べる); its proposed reading is the proposals that tile it,
 * in order, and none when a run has a part without a proposal or a proposal reaching past it. The text's
 * kana between the runs must be found in the corpus reading (folded alike, long vowels as matchPiece says),
 * each run reading 1 to 6 kana per kanji; among the ways to cut the corpus reading so, the one with the
 * most runs reading exactly as proposed counts (a dynamic programme over the pieces and the positions).
 * A sentence is right when all its runs are.
 */
export function scoreSentence(sentence: CorpusSentence, proposals: Proposal[]): SentenceScore {
  const runs = [...sentence.text.matchAll(RUBY_RUN)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const proposed = proposedReadings(runs, proposals);
  const pieces: Piece[] = [];
  let at = 0;
  runs.forEach((run, i) => {
    pieces.push({ kind: "kana", forms: [folded(sentence.text.slice(at, run.start))] });
    const base = sentence.text.slice(run.start, run.end);
    pieces.push({ kind: "run", forms: proposed[i] ? runForms(base, proposed[i]!) : [], length: run.end - run.start });
    at = run.end;
  });
  pieces.push({ kind: "kana", forms: [folded(sentence.text.slice(at))] });
  const corpus = spokenCorpus(sentence.kana);
  // best[i][pos]: the most runs read as proposed in pieces i.. from corpus position pos (-1: no way)
  const best = pieces.map(() => new Int16Array(corpus.length + 1).fill(-2));
  const solve = (i: number, pos: number): number => {
    if (i === pieces.length) return pos === corpus.length ? 0 : -1;
    const memo = best[i]![pos]!;
    if (memo !== -2) return memo;
    const piece = pieces[i]!;
    let result = -1;
    for (const end of matchEnds(piece, corpus, pos)) {
      const rest = solve(i + 1, end);
      if (rest >= 0) result = Math.max(result, rest + (piece.kind === "run" ? 1 : 0));
    }
    if (piece.kind === "run")
      for (let end = pos + 1; end <= Math.min(corpus.length, pos + MAX_PER_KANJI * piece.length); end++)
        result = Math.max(result, solve(i + 1, end));
    best[i]![pos] = result;
    return result;
  };
  const right = solve(0, 0);
  if (right < 0) return { words: runs.length, right: 0, aligned: false, wrong: [] };
  return {
    words: runs.length,
    right,
    aligned: true,
    wrong: wrongRuns(sentence, runs, proposed, pieces, corpus, solve),
  };
}

/** The runs not read as proposed on the best cut, with the corpus's reading (for a person reading the failures). */
function wrongRuns(
  sentence: CorpusSentence,
  runs: { start: number; end: number }[],
  proposed: (string | null)[],
  pieces: Piece[],
  corpus: string,
  solve: (i: number, pos: number) => number,
): SentenceScore["wrong"] {
  const wrong: SentenceScore["wrong"] = [];
  let pos = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const goal = solve(i, pos);
    const matched = matchEnds(piece, corpus, pos).find((end) => {
      const rest = solve(i + 1, end);
      return rest >= 0 && rest + (piece.kind === "run" ? 1 : 0) === goal;
    });
    if (matched !== undefined) {
      pos = matched;
      continue;
    }
    let end = pos + 1;
    while (solve(i + 1, end) !== goal) end++;
    const run = runs[(i - 1) / 2]!;
    wrong.push({
      base: `${sentence.text.slice(run.start, run.end)}=${corpus.slice(pos, end)}`,
      proposed: proposed[(i - 1) / 2] ?? null,
    });
    pos = end;
  }
  return wrong;
}
