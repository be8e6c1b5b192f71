import "server-only";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import { errorField, log } from "@/platform/ops/log";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import type { SchoolCtx } from "@/features/people/server/school-action";
import { hasKanji } from "../shared/furigana-align";
import { nameEntries } from "../shared/furigana-names";
import { proposeFurigana, type WordEntry } from "../shared/furigana-propose";
import { correctedWords, MAX_SCHOOL_WORDS, stringsOf, withoutRuby } from "../shared/furigana-words";
import { listRosterReadings } from "./furigana-queries";
import { tokenizeMarkup } from "./furigana-tokenizer";

/** A text holding a ruby over a kanji (`|漢字(…)`): only those are read again. */
const HAS_RUBY = /\|[^|()（）\n]*\p{Script=Han}/u;

/** The words of `texts` a teacher read otherwise than the proposer (features/activities/shared/furigana-words.ts). */
async function correctionsOf(school: AuthorizedSchoolId, texts: string[]): Promise<WordEntry[]> {
  const withRuby = texts.filter((t) => HAS_RUBY.test(t) && hasKanji(t));
  if (withRuby.length === 0) return [];
  const names = nameEntries(await listRosterReadings(school));
  const words = new Map<string, string>();
  for (const text of withRuby) {
    const { plain, rubies } = withoutRuby(text);
    const tokens = await tokenizeMarkup(plain);
    for (const w of correctedWords(plain, rubies, tokens, proposeFurigana(plain, tokens, names)))
      words.set(w.base, w.reading);
  }
  return [...words].map(([base, reading]) => ({ base, reading }));
}

/**
 * Remembers for the school the words its teacher read otherwise than the proposer in `content` (a saved scene's
 * content or an activity's title), in one statement: a word listed again takes the new reading (its count
 * grows while the reading stays), and the school keeps its MAX_SCHOOL_WORDS most recently saved words. Only
 * texts with a ruby over a kanji are analysed. Each word remembered is marked as learned in the editor
 * (source 'editor') and as given by `ctx.actorId`. Returns how many words were remembered.
 */
export async function rememberSchoolReadings(ctx: SchoolCtx, content: unknown): Promise<number> {
  const school = ctx.schoolId;
  // in one order, so two saves of the school lock the rows they share in the same order (no deadlock)
  const words = (await correctionsOf(school, stringsOf(content))).sort((a, b) => (a.base < b.base ? -1 : 1));
  if (words.length === 0) return 0;
  const bases = words.map((w) => w.base);
  const readings = words.map((w) => w.reading);
  // one snapshot for all parts: the delete sees the rows as they were before this insert
  await db().$executeRaw`
    with saved as (
      insert into school_readings (school_id, base, reading, count, updated_at, source, updated_by)
      select ${school}::uuid, w.base, w.reading, 1, now(), 'editor', ${ctx.actorId}::uuid
      from unnest(${bases}::text[], ${readings}::text[]) as w(base, reading)
      on conflict (school_id, base) do update set
        count = case when school_readings.reading = excluded.reading then school_readings.count + 1 else 1 end,
        reading = excluded.reading,
        updated_at = now(),
        source = excluded.source,
        updated_by = excluded.updated_by
      returning base
    )
    delete from school_readings where school_id = ${school}::uuid and base in (
      select base from school_readings
      where school_id = ${school}::uuid and base not in (select base from saved)
      order by updated_at desc, base
      offset greatest(0, ${MAX_SCHOOL_WORDS} - (select count(*) from saved))
    )`;
  return words.length;
}

/**
 * After a save (`result`), the school's list learns from the saved `content`: only when the save went through,
 * outside its transaction (no row stays locked while the analyser runs); a failure here is logged and never
 * turns the save into an error.
 */
export async function rememberAfterSave<R extends ActionResult<unknown>>(
  ctx: SchoolCtx,
  content: unknown,
  result: R,
): Promise<R> {
  if (!result.ok) return result;
  try {
    await rememberSchoolReadings(ctx, content);
  } catch (error) {
    log().error(
      { event: "furigana.words.failed", ...errorField(error) },
      "furigana: the school's words were not saved",
    );
  }
  return result;
}

/**
 * Removes `base` from the school's list (the school's readings page): the proposer no longer reads it with the
 * school's reading. NOT_FOUND when the school has no such word.
 */
export async function deleteSchoolReading(school: AuthorizedSchoolId, base: string): Promise<ActionResult<null>> {
  const { count } = await db().schoolReading.deleteMany({ where: { schoolId: school, base } });
  return count === 1 ? ok(null) : fail("NOT_FOUND");
}

/**
 * Gives `base` of the school's list the reading `reading` (hiragana, checked by the action's schema and by the
 * database): marked as corrected on the page (source 'page') by `ctx.actorId`, its count back to one, the most
 * recently saved word of the list. NOT_FOUND when the school has no such word.
 */
export async function correctSchoolReading(
  ctx: SchoolCtx,
  base: string,
  reading: string,
): Promise<ActionResult<{ reading: string }>> {
  const { count } = await db().schoolReading.updateMany({
    where: { schoolId: ctx.schoolId, base },
    data: { reading, count: 1, source: "page", updatedBy: ctx.actorId, updatedAt: new Date() },
  });
  return count === 1 ? ok({ reading }) : fail("NOT_FOUND");
}
