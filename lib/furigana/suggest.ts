import "server-only";
import type { AuthorizedSchoolId } from "@/lib/schools/scope";
import { listRosterReadings } from "./data";
import { nameEntries } from "./names";
import { proposeFurigana, type Proposal } from "./propose";
import { tokenizeMarkup } from "./tokenizer";

/** The furigana proposals for `text` in `school`: the dictionary's readings, the roster's for names. */
export async function suggestFurigana(school: AuthorizedSchoolId, text: string): Promise<Proposal[]> {
  const [tokens, roster] = await Promise.all([tokenizeMarkup(text), listRosterReadings(school)]);
  return proposeFurigana(text, tokens, nameEntries(roster));
}
