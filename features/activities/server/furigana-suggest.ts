import "server-only";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { listRosterReadings } from "./furigana-queries";
import { nameEntries } from "../shared/furigana-names";
import { proposeFurigana, type Proposal } from "../shared/furigana-propose";
import { tokenizeMarkup } from "./furigana-tokenizer";

/** The furigana proposals for `text` in `school`: the dictionary's readings, the roster's for names. */
export async function suggestFurigana(school: AuthorizedSchoolId, text: string): Promise<Proposal[]> {
  const [tokens, roster] = await Promise.all([tokenizeMarkup(text), listRosterReadings(school)]);
  return proposeFurigana(text, tokens, nameEntries(roster));
}
