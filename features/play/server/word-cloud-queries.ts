import "server-only";
import { db } from "@/platform/db";
import { groupWords, type WordGroup } from "@/features/scenes/shared/word-cloud";

/**
 * A word cloud scene's words: ONE grouped query counts each stored spelling among the students' answers (of
 * `klass` when the session is run for one), and the spellings are merged by their folded key in code
 * (features/scenes/shared/word-cloud.ts `groupWords`): the work grows with the distinct spellings, not with the
 * answers, so 2,000 answers cost one statement and a few hundred folds.
 */
export async function wordCloudWords(
  activityId: string,
  sceneId: string,
  klass: { grade: number; className: string } | null | undefined,
): Promise<{ total: number; words: WordGroup[] }> {
  const rows = await db().$queryRaw<{ word: string | null; n: number; total: number }[]>`
    with answered as (
      select r.answer from responses r join users u on u.id = r.user_id and u.role = 'student'
      left join student_details d on d.user_id = u.id
      where r.activity_id = ${activityId}::uuid and r.scene_id = ${sceneId}::uuid
        and (${klass?.grade ?? null}::int is null or (d.grade = ${klass?.grade ?? null}::int
          and d.class_name = ${klass?.className ?? null}::text))
    )
    select w.word, count(*)::int as n, (select count(*) from answered)::int as total
    from answered a
    left join lateral jsonb_array_elements_text(
      case when jsonb_typeof(a.answer->'words') = 'array' then a.answer->'words' else '[]'::jsonb end) w(word) on true
    group by w.word`;
  const total = rows[0]?.total ?? 0;
  return { total, words: groupWords(rows.flatMap((r) => (r.word === null ? [] : [{ word: r.word, n: r.n }]))) };
}

/** The keys of the words session `sessionId` hides on scene `sceneId` (guide_sessions.hidden_words). */
export function hiddenWordsOf(stored: unknown, sceneId: string): string[] {
  const list = (stored as Record<string, unknown> | null)?.[sceneId];
  return Array.isArray(list) ? list.filter((k): k is string => typeof k === "string") : [];
}
