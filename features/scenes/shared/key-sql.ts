/**
 * The answer key's rules (key.ts `verdictOf`) in SQL, for queries that mark many answers in one pass: the correct
 * rates of the statistics (features/results/server/correct-rate-queries.ts) and a game's points
 * (features/play/server/game-queries.ts). Pure strings; the caller names its tables.
 */

/** The ids of `list` (a jsonb array of options) marked correct, sorted. */
export const flaggedSql = (list: string) =>
  `(select coalesce(array_agg(o->>'id' order by o->>'id'), '{}') from jsonb_array_elements(coalesce(${list}, '[]'::jsonb)) o where o->>'correct' = 'true')`;

/** The key columns of scene row `s`: `opts` (single and multiple choice), `firsts` (a two-step's first step). */
export const keyColumnsSql = (s: string) =>
  `${flaggedSql(`${s}.content->'options'`)} as opts, ${flaggedSql(`${s}.content->'first'->'options'`)} as firsts`;

/**
 * "The scene `type` with content `content` has a key": an ordering always, else some option, anywhere in it, marked
 * correct (`true`) or a matching's left item naming its right item (a string).
 */
export const hasKeySql = (content: string, type: string) =>
  `(${type}::text = 'ordering' or ${content}::text ~ '"correct":\\s*(true|")')`;

/** The scene types marked by `correctSql`. */
export const KEYED_TYPES_SQL = `('single_choice', 'multiple_choice', 'two_step', 'ordering', 'matching')`;

/** A LATERAL join giving `sec.ids`: the correct second options for answer `r`'s first choice in scene `k`. */
export const secondKeySql = (k: string, r: string) =>
  `left join lateral (select ${flaggedSql(`coalesce(${k}.content->'second'->'optionsByFirst'->(${r}.answer->>'first'), ${k}.content->'second'->'options')`)} as ids) sec on true`;

/** Whether answer `r` is correct by key `k` (keyColumnsSql's columns, `k.type` as text; secondKeySql joined). */
export const correctSql = (k: string, r: string) => `case ${k}.type
           when 'single_choice' then (${r}.answer->>'choice') = any(${k}.opts)
           when 'multiple_choice' then (select coalesce(array_agg(x order by x), '{}') from jsonb_array_elements_text(
               case when jsonb_typeof(${r}.answer->'choices') = 'array' then ${r}.answer->'choices' else '[]'::jsonb end) x) = ${k}.opts
           when 'ordering' then coalesce((${r}.answer->'order') = jsonb_path_query_array(${k}.content, '$.items[*].id'), false)
           when 'matching' then coalesce((${r}.answer->'pairs') = (select jsonb_object_agg(l->>'id', l->'correct')
               from jsonb_array_elements(${k}.content->'left') l), false)
           else (cardinality(${k}.firsts) = 0 or (${r}.answer->>'first') = any(${k}.firsts))
             and (cardinality(sec.ids) = 0 or (${r}.answer->>'second') = any(sec.ids))
         end`;
