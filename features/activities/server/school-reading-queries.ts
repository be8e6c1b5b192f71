import "server-only";
import { db } from "@/platform/db";
import { containsPattern } from "@/platform/db/query-text";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { toHiragana } from "../shared/furigana-align";
import { READINGS_PAGE_SIZE, type ReadingSource, type ReadingsQuery } from "../shared/school-readings";

/** One reading of the school's readings page. */
export interface ListedReading {
  base: string;
  reading: string;
  source: ReadingSource;
  /** when the reading was last given (a roster name: when the person was last changed) */
  at: Date;
  /** who gave it (null: a roster name, or an account since deleted) */
  by: string | null;
}

/**
 * One page of the readings the school's furigana uses (features/activities/README.md "Furigana"): its own list
 * (school_readings: learned in the editor or corrected on the page, the most recently given first), then the
 * names of its roster with their kana (the people not disabled, by reading), as the proposer takes them
 * (furigana-queries.ts). `q` finds a word or a reading containing it (typed in katakana or hiragana).
 */
export async function listReadingsPage(
  school: AuthorizedSchoolId,
  q: ReadingsQuery,
): Promise<{ rows: ListedReading[]; total: number; pages: number }> {
  const like = q.q ? containsPattern(q.q) : null;
  const likeKana = q.q ? containsPattern(toHiragana(q.q)) : null;
  // one row at least (base null when the page is empty), so a page past the last still carries the count
  const rows = await db().$queryRaw<(Omit<ListedReading, "base"> & { base: string | null; total: number })[]>`
    with entries as (
      select r.base, r.reading, r.source, r.updated_at as at, u.name as by
      from school_readings r left join users u on u.id = r.updated_by
      where r.school_id = ${school}::uuid
      union all
      select u.name, u.name_kana, 'roster', u.updated_at, null
      from users u
      where u.school_id = ${school}::uuid and not u.disabled and u.name is not null and u.name_kana is not null
    ), matched as (
      select * from entries
      where ${like}::text is null or base ilike ${like}::text or reading ilike ${like}::text
        or reading ilike ${likeKana}::text
    )
    select p.base, p.reading, p.source, p.at, p.by, (select count(*) from matched)::int as total
    from (select 1) as one left join (
      select matched.*, row_number() over (
        order by source = 'roster', case when source = 'roster' then null else at end desc nulls last, reading, base
      ) as n
      from matched
      order by n
      limit ${READINGS_PAGE_SIZE} offset ${(q.page - 1) * READINGS_PAGE_SIZE}
    ) as p on true
    order by p.n`;
  const total = rows[0]?.total ?? 0;
  return {
    rows: rows.flatMap(({ total: _total, base, ...r }) => (base === null ? [] : [{ base, ...r }])),
    total,
    pages: Math.max(1, Math.ceil(total / READINGS_PAGE_SIZE)),
  };
}
