import DataLoader from "dataloader";
import { oneBatchAtATime } from "@/platform/db/batches";
import { verdictOf } from "@/features/scenes/shared/key";
import { sceneSchema } from "@/features/scenes/shared/schema";
import { correctSql, hasKeySql, KEYED_TYPES_SQL, keyColumnsSql, secondKeySql } from "@/features/scenes/shared/key-sql";
import { GAME_BASE_POINTS, GAME_PODIUM, GAME_SPEED_SECONDS, type GameStanding, nicknameOf } from "../shared/game";

/**
 * The ranking of game sessions as SQL ($1 the sessions, $2 the correct answers to typed scenes: `typedCorrect`), read by the projector's board (features/play/server/game-queries.ts)
 * and by the students' streams (each student's own row, this file). Framework-free: the app runs it over Prisma, the
 * production server's student streams over node-postgres. Each session is ranked on its own:
 * - the roster: the school's enabled students of the session's class (every one for a whole-school session), each
 *   numbered in an order of the session's own (md5 of session and student), which makes their nickname: stable for
 *   the session, unrelated to their name or class number;
 * - points: per answer given in this session to a scene with a key (the key of the answer's scene version, the
 *   statistics' rules, features/scenes/shared/key-sql.ts), a correct one earns the base points falling to half over
 *   GAME_SPEED_SECONDS from when the scene first became current (`scene_starts`) to the answer's last save: a
 *   change of answer is saved later and never earns more; a wrong one earns nothing; fill-in-the-blanks and number
 *   answers are marked in code (`typedCorrect`, the statistics' rules too) and named in $2;
 * - the players (`ranked`): roster students who joined the session (presence) or answered in it; ties share a rank;
 * - teams (`teams`): classes (a whole-school session) or counterbalance groups (a class's), by total.
 */
/** The scene types marked in code (features/scenes/README.md "Fill in the blanks", "Number"). */
const TYPED_TYPES_SQL = `('fill_blanks', 'number')`;

export const GAME_RANKING_CTES = `
  with s as (
    select gs.id, gs.activity_id, gs.grade, gs.class_name, gs.scene_starts, a.school_id
    from guide_sessions gs join activities a on a.id = gs.activity_id where gs.id = any($1::uuid[]) and gs.game
  ), roster as (
    select s.id as sid, u.id, u.name, u.nickname, u.name_kana, d.grade, d.class_name, d.counterbalance_group as grp,
      (row_number() over (partition by s.id order by md5(s.id::text || u.id::text)) - 1)::int as k,
      case when s.grade is null then d.grade::text || ':' || d.class_name else d.counterbalance_group end as team
    from s join users u on u.school_id = s.school_id and u.role = 'student' and not u.disabled
    left join student_details d on d.user_id = u.id
    where s.grade is null or (d.grade = s.grade and d.class_name = s.class_name)
  ), k as (
    select s.id as sid, sc.id, sc.type::text as type, sc.content, sc.version, ${keyColumnsSql("sc")},
      (s.scene_starts->>(sc.id::text))::timestamptz as started
    from s join activity_scenes sc on sc.activity_id = s.activity_id
    where (sc.type in ${KEYED_TYPES_SQL} and ${hasKeySql("sc.content", "sc.type")} or sc.type in ${TYPED_TYPES_SQL})
      and s.scene_starts->(sc.id::text) is not null
  ), pts as (
    select k.sid, r.user_id, sum(case when
        case when k.type in ${TYPED_TYPES_SQL} then r.id = any($2::uuid[]) else ${correctSql("k", "r")} end
      then round(${GAME_BASE_POINTS} - ${GAME_BASE_POINTS / 2} * least(greatest(extract(epoch from r.updated_at - k.started), 0), ${GAME_SPEED_SECONDS}) / ${GAME_SPEED_SECONDS})
      else 0 end)::int as points
    from k join responses r on r.session_id = k.sid and r.scene_id = k.id and r.scene_version = k.version
    ${secondKeySql("k", "r")}
    group by k.sid, r.user_id
  ), ranked as (
    select ro.*, coalesce(p.points, 0) as points,
      rank() over (partition by ro.sid order by coalesce(p.points, 0) desc)::int as rnk
    from roster ro left join pts p on p.sid = ro.sid and p.user_id = ro.id
    where p.user_id is not null
      or exists (select 1 from guide_presence gp where gp.session_id = ro.sid and gp.user_id = ro.id)
  ), teams as (
    select sid, team, sum(points)::int as points, count(*)::int as members,
      rank() over (partition by sid order by sum(points) desc)::int as rnk
    from ranked where team is not null group by sid, team
  )`;

/**
 * Every player's own row of the sessions $1: their points, rank and nickname's number, their team's (if any). The
 * comment names the statement where PostgreSQL shows it (pg_stat_activity keeps a statement's start).
 */
export const STANDINGS_MARK = "/* game: standings */";
const STANDINGS_SQL = `${STANDINGS_MARK}${GAME_RANKING_CTES}
  select p.sid::text as session_id, p.id::text as user_id, p.points, p.rnk as rank, p.k,
    count(*) over (partition by p.sid)::int as players,
    t.points as team_points, t.rnk as team_rank, (select count(*)::int from teams x where x.sid = p.sid) as teams
  from ranked p left join teams t on t.sid = p.sid and t.team = p.team`;

export interface StandingRow {
  session_id: string;
  user_id: string;
  points: number;
  rank: number;
  k: number;
  players: number;
  team_points: number | null;
  team_rank: number | null;
  teams: number;
}

/** A game session's players' own standings, by student id. */
export type Standings = ReadonlyMap<string, GameStanding>;

function standingOf(row: StandingRow): GameStanding {
  return {
    points: row.points,
    rank: row.rank,
    players: row.players,
    nickname: nicknameOf(row.k),
    team: row.team_rank === null ? null : { rank: row.team_rank, points: row.team_points ?? 0, teams: row.teams },
    podium: row.rank <= GAME_PODIUM ? row.rank : null,
  };
}

/**
 * The standings of the game sessions asked together, in two statements side by side (`rankWithTyped`: the typed
 * answers' and STANDINGS_SQL with the sessions' ids; a third when a typed answer is right), one such read at a time
 * (oneBatchAtATime: the sessions asked while one runs go together in the next): when fifty teachers show the
 * leaderboard at once, the fifty classes' reads make one or two. A session that is not a game has none. Nothing is
 * kept: each change reads again.
 */
export function standingsLoader(query: GameQuery): DataLoader<string, Standings> {
  const { batch, batchScheduleFn } = oneBatchAtATime<string, Standings>(async (ids) => {
    const bySession = new Map<string, Map<string, GameStanding>>();
    const rows = await rankWithTyped<StandingRow>(query, STANDINGS_SQL, [...ids]);
    for (const row of rows) {
      const standings = bySession.get(row.session_id) ?? new Map<string, GameStanding>();
      standings.set(row.user_id, standingOf(row));
      bySession.set(row.session_id, standings);
    }
    return ids.map((id) => bySession.get(id) ?? new Map());
  });
  return new DataLoader<string, Standings>(batch, { cache: false, maxBatchSize: 500, batchScheduleFn });
}

/** A statement with its parameters, over Prisma or node-postgres. */
export type GameQuery = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** The comment naming the typed answers' statement where PostgreSQL shows it. */
export const TYPED_MARK = "/* game: typed answers */";
const TYPED_SQL = `${TYPED_MARK}
  select r.id::text as id, sc.id::text as scene_id, sc.type::text as type, sc.content, r.answer
  from guide_sessions gs join activity_scenes sc on sc.activity_id = gs.activity_id and sc.type in ${TYPED_TYPES_SQL}
  join responses r on r.session_id = gs.id and r.scene_id = sc.id and r.scene_version = sc.version
  where gs.id = any($1::uuid[]) and gs.game and gs.scene_starts->(sc.id::text) is not null`;

interface TypedRow {
  id: string;
  scene_id: string;
  type: string;
  content: unknown;
  answer: unknown;
}

/**
 * `sql` (a ranking: $1 the sessions, $2 the correct answers to typed scenes) over the game sessions `sessionIds`.
 * The typed answers' statement runs beside the ranking read with none named, so a change waits for one round trip,
 * not two; only when some typed answer is correct is the ranking read again with them (their points then count).
 */
export async function rankWithTyped<T>(query: GameQuery, sql: string, sessionIds: string[]): Promise<T[]> {
  const [typed, rows] = await Promise.all([typedCorrect(query, sessionIds), query<T>(sql, [sessionIds, []])]);
  return typed.length === 0 ? rows : query<T>(sql, [sessionIds, typed]);
}

/**
 * The ids of the correct answers given in the game sessions `sessionIds` to fill-in-the-blanks and number scenes
 * that have been current: marked by `verdictOf` (their folding and tolerance are code, not SQL), each scene parsed once.
 */
export async function typedCorrect(query: GameQuery, sessionIds: string[]): Promise<string[]> {
  const rows = await query<TypedRow>(TYPED_SQL, [sessionIds]);
  const scenes = new Map<string, ReturnType<typeof sceneSchema.safeParse>>();
  return rows
    .filter((r) => {
      const parsed = scenes.get(r.scene_id) ?? sceneSchema.safeParse({ type: r.type, content: r.content });
      scenes.set(r.scene_id, parsed);
      return parsed.success && verdictOf(parsed.data, r.answer) === "correct";
    })
    .map((r) => r.id);
}
