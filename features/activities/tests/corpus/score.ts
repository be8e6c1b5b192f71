import { readFileSync } from "node:fs";
import { toHiragana } from "@/features/activities/shared/furigana-align";
import type { Proposal } from "@/features/activities/shared/furigana-propose";

/** One sentence of the corpus: its text and its reading in kana, as the corpus writes them. */
export interface CorpusSentence {
  id: string;
  text: string;
  kana: string;
}

export function readCorpus(file: "dev.tsv" | "held-out.tsv"): CorpusSentence[] {
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

/**
 * The corpus (jsut-label) writes what a speaker says (とーきょー, 停戦 てーせん, the particle は as わ, を as
 * お, 言う as ゆー), the dictionary how a word is spelled (とうきょう). The corpus reading is folded
 * (folded()); a proposed reading or a stretch of the text's own kana is folded too, and inside it a う after
 * an o or u sound and an い after an e sound count as the vowel lengthened (とうきょう as とおきょお): only
 * inside one piece, since the corpus lengthens inside a word and not across words (て|行く is ていく); the い
 * after an e sound only in a reading of kanji (the text's kana ていた stay ていた, 先生 せんせい is せんせー).
 */
export function spokenPiece(reading: string, kanji: boolean): string {
  let out = "";
  for (const c of folded(reading)) {
    const before = VOWEL[out.at(-1) ?? ""];
    if (c === "う" && (before === "お" || before === "う")) out += before;
    else if (c === "い" && before === "え" && kanji) out += "え";
    else out += c;
  }
  return out;
}

export const spokenCorpus = (kana: string) => folded(kana);

/** A piece as the corpus may write it: lengthened (せんせー) or not (ひめい: the corpus is not consistent). */
const forms = (piece: string, kanji: boolean) => [...new Set([spokenPiece(piece, kanji), folded(piece)])];

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

type Piece = { kind: "kana"; forms: string[] } | { kind: "run"; forms: string[]; length: number };

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
 * kana between the runs must be found in the corpus reading (folded alike: spokenPiece, spokenCorpus),
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
    pieces.push({ kind: "kana", forms: forms(sentence.text.slice(at, run.start), false) });
    pieces.push({ kind: "run", forms: proposed[i] ? forms(proposed[i]!, true) : [], length: run.end - run.start });
    at = run.end;
  });
  pieces.push({ kind: "kana", forms: forms(sentence.text.slice(at), false) });
  const corpus = spokenCorpus(sentence.kana);
  // best[i][pos]: the most runs read as proposed in pieces i.. from corpus position pos (-1: no way)
  const best = pieces.map(() => new Int16Array(corpus.length + 1).fill(-2));
  const solve = (i: number, pos: number): number => {
    if (i === pieces.length) return pos === corpus.length ? 0 : -1;
    const memo = best[i]![pos]!;
    if (memo !== -2) return memo;
    const piece = pieces[i]!;
    let result = -1;
    for (const form of piece.forms) {
      if (!corpus.startsWith(form, pos)) continue;
      const rest = solve(i + 1, pos + form.length);
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
    const form = piece.forms.find((f) => {
      if (!corpus.startsWith(f, pos)) return false;
      const rest = solve(i + 1, pos + f.length);
      return rest >= 0 && rest + (piece.kind === "run" ? 1 : 0) === goal;
    });
    if (form !== undefined) {
      pos += form.length;
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
