import "server-only";
import path from "node:path";
import kuromoji from "kuromoji";
import type { Token } from "../shared/furigana-propose";
import { toHiragana } from "../shared/furigana-align";
import { joinLexiconWords, type Lexicon } from "../shared/furigana-lexicon-rules";
import { joinMixedWords, type MixedDictionary } from "../shared/furigana-mixed-rules";
import { chunksOf, textSpans } from "../shared/furigana-spans";
import { type KanjiReadings, loadKanjiReadings, loadLexicon } from "./furigana-lexicon";

/**
 * The morphological analyser (kuromoji with its IPADIC dictionary, 18 MB of
 * gzip files in node_modules/kuromoji/dict, read from the local disk: no other
 * host, so it works offline). Built once per process on first use, and the
 * calls that arrive while it builds share that one build; about 0.6 s and
 * ~170 MB kept in memory afterwards (docs/adr/0049-automatic-furigana-kuromoji.md).
 */
export const DICTIONARY_DIR = path.join(process.cwd(), "node_modules", "kuromoji", "dict");

type Analyzer = kuromoji.Tokenizer<kuromoji.IpadicFeatures>;
/** kuromoji's own tables, which its type definitions leave out: the dictionary's words by spelling. */
interface Tables {
  viterbi_builder: { trie: { commonPrefixSearch(s: string): { k: string; v: number }[] } };
  token_info_dictionary: { target_map: Record<number, number[] | undefined>; getFeatures(id: number): string };
}
/** nounReadings by kanji: the dictionary does not change while the process runs; at most one entry a kanji of the dictionary. */
const known = new Map<string, string[]>();

/** The dictionary's readings of `surface` as a noun (its suffixes among them), katakana, in the dictionary's order. */
function nounReadings(analyzer: Analyzer, surface: string): string[] {
  let readings = known.get(surface);
  if (!readings) {
    readings = lookUp(analyzer, surface);
    if (readings.length > 0) known.set(surface, readings);
  }
  return readings;
}

/** The dictionary's readings of `surface` as a noun (as a common noun only when `common`), katakana. */
function lookUp(analyzer: Analyzer, surface: string, common = false): string[] {
  const tables = analyzer as unknown as Tables;
  const readings = new Set<string>();
  for (const { k, v } of tables.viterbi_builder.trie.commonPrefixSearch(surface)) {
    if (k !== surface) continue;
    for (const id of tables.token_info_dictionary.target_map[v] ?? []) {
      const features = tables.token_info_dictionary.getFeatures(id).split(",");
      // surface, pos, pos_detail_1..3, conjugation type and form, basic form, reading, pronunciation
      if (features[1] !== "名詞" || !features[8] || features[8] === "*") continue;
      if (!common || (features[2] !== "固有名詞" && features[2] !== "数")) readings.add(features[8]);
    }
  }
  return [...readings];
}

/**
 * The words written half in kana (shared/furigana-mixed-rules.ts): kanji by reading, words of either dictionary. One
 * for each text: its words are looked up once each and at most MIXED_LOOKUPS times in all, so a text made to try
 * thousands of spellings (a noun and four kana 1,500 times, each different) costs a few hundred milliseconds at most.
 */
const MIXED_LOOKUPS = 1_500;
function mixedDictionary(analyzer: Analyzer, lexicon: Lexicon, kanji: KanjiReadings): MixedDictionary {
  const seen = new Map<string, string[]>();
  let left = MIXED_LOOKUPS;
  return {
    kanjiRead: (reading) => kanji.byReading.get(reading) ?? "",
    readingsOf: (one) => kanji.ofKanji.get(one) ?? [],
    wordReadings(surface) {
      let readings = seen.get(surface);
      if (readings) return readings;
      if (left <= 0) return [];
      left--;
      const found = [...lookUp(analyzer, surface, true).map(toHiragana), ...(lexicon.word(surface)?.readings ?? [])];
      readings = [...new Set(found)];
      seen.set(surface, readings);
      return readings;
    },
  };
}

/** A common noun of one kanji: the words whose other readings a rule may choose (shared/furigana-compound-rules.ts). */
const ONE_KANJI = /^\p{Script=Han}$/u;
const oneKanjiNoun = (t: kuromoji.IpadicFeatures) =>
  t.pos === "名詞" && t.pos_detail_1 === "一般" && t.word_type === "KNOWN" && ONE_KANJI.test(t.surface_form);
let building: Promise<Analyzer> | null = null;

export function loadTokenizer(dicPath = DICTIONARY_DIR): Promise<Analyzer> {
  building ??= new Promise<Analyzer>((resolve, reject) => {
    kuromoji.builder({ dicPath }).build((error, tokenizer) => (error ? reject(error) : resolve(tokenizer)));
  }).catch((error: unknown) => {
    building = null; // a failed build (files missing) is tried again on the next call
    throw error;
  });
  return building;
}

/**
 * The analyser's words of the plain-text parts of `text` (stored markup), at their offsets in `text`, with the
 * compounds of the second dictionary joined (shared/furigana-lexicon-rules.ts), then the words written half in kana
 * (shared/furigana-mixed-rules.ts).
 */
export async function tokenizeMarkup(text: string): Promise<Token[]> {
  const [tokenizer, lexicon, kanji] = await Promise.all([loadTokenizer(), loadLexicon(), loadKanjiReadings()]);
  const mixed = mixedDictionary(tokenizer, lexicon, kanji);
  const pieces = textSpans(text).flatMap((span) =>
    chunksOf(span.text).map((c) => ({ start: span.start + c.start, text: c.text })),
  );
  return pieces.flatMap((span) => {
    // kuromoji's word_position counts code points, the app's offsets count UTF-16 units (𠮷 is two):
    // each word is found after the previous one instead
    let cursor = 0;
    const words = tokenizer.tokenize(span.text).flatMap((t) => {
      const at = span.text.indexOf(t.surface_form, cursor);
      if (at < 0) return [];
      cursor = at + t.surface_form.length;
      const pos = [t.pos, t.pos_detail_1, t.pos_detail_2].filter((p) => p && p !== "*").join(",");
      return [
        {
          start: span.start + at,
          surface: t.surface_form,
          reading: t.reading ?? null,
          pos,
          unknown: t.word_type === "UNKNOWN",
          ...(oneKanjiNoun(t) ? { readings: nounReadings(tokenizer, t.surface_form) } : {}),
        },
      ];
    });
    return joinMixedWords(joinLexiconWords(words, lexicon), mixed);
  });
}
