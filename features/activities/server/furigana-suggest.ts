import "server-only";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { listRosterReadings, listSchoolReadings } from "./furigana-queries";
import { nameEntries } from "../shared/furigana-names";
import { applyFurigana, proposeFurigana, type Proposal } from "../shared/furigana-propose";
import { hasKanji } from "../shared/furigana-align";
import { tokenizeMarkup } from "./furigana-tokenizer";

/** The furigana proposals for `text` in `school`: the dictionary's readings, the roster's for names, the school's own words. */
export async function suggestFurigana(school: AuthorizedSchoolId, text: string): Promise<Proposal[]> {
  const [tokens, roster, words] = await Promise.all([
    tokenizeMarkup(text),
    listRosterReadings(school),
    listSchoolReadings(school),
  ]);
  return proposeFurigana(text, tokens, nameEntries(roster), words);
}

/**
 * `text` (stored markup) with automatic furigana on every kanji word the analyser or the roster has a reading for
 * (features/results: a teacher's comment as a student reads it); the text as it is when it has no kanji.
 */
export async function withFurigana(school: AuthorizedSchoolId, text: string): Promise<string> {
  if (!hasKanji(text)) return text;
  return applyFurigana(text, await suggestFurigana(school, text));
}
