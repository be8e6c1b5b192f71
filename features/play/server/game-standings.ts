import DataLoader from "dataloader";
import { oneBatchAtATime } from "@/platform/db/batches";
import { sharedWhileCurrent, topicGeneration } from "@/platform/notify/listen";
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
 * The ranking of the game sessions $1: a row per player (points, rank, nickname's number, what the board may name,
 * team and its total), and one with no player for a game session nobody plays yet. The projector's board and the
 * students' own standings are both made from it (rankingLoader). The comment names the statement where PostgreSQL
 * shows it (pg_stat_activity keeps a statement's start).
 */
export const RANKING_MARK = "/* game: ranking */";
const RANKING_SQL = `${RANKING_MARK}${GAME_RANKING_CTES}
  select s.id::text as session_id, s.grade is null as whole_school, p.id::text as user_id, p.points, p.rnk as rank,
    p.k, p.name, p.nickname, p.name_kana, p.team, t.points as team_points, t.rnk as team_rank, t.members as team_members
  from s left join ranked p on p.sid = s.id left join teams t on t.sid = p.sid and t.team = p.team
  order by s.id, p.rnk, p.k`;

interface RankingRow {
  session_id: string;
  whole_school: boolean;
  user_id: string | null;
  points: number;
  rank: number;
  k: number;
  name: string | null;
  nickname: string | null;
  name_kana: string | null;
  team: string | null;
  team_points: number | null;
  team_rank: number | null;
  team_members: number | null;
}

/** A player of a game session's ranking. */
export interface RankedPlayer {
  userId: string;
  points: number;
  rank: number;
  /** the nickname's number (nicknameOf) */
  k: number;
  name: string | null;
  nickname: string | null;
  nameKana: string | null;
}

/** A team's total: a class ("grade:className", a whole-school session) or a counterbalance group. */
export interface RankedTeam {
  team: string;
  points: number;
  members: number;
  rank: number;
}

/** A game session's ranking: its players by rank (then nickname's number), its teams by rank (then name). */
export interface Ranking {
  wholeSchool: boolean;
  players: RankedPlayer[];
  teams: RankedTeam[];
  /** each player's own standing, by student id (made once, for every stream of the session) */
  standings: Standings;
}

/** A game session's players' own standings, by student id. */
export type Standings = ReadonlyMap<string, GameStanding>;

function rankingOf(rows: RankingRow[]): Ranking {
  const players: RankedPlayer[] = [];
  const teams = new Map<string, RankedTeam>();
  const teamOf = new Map<string, RankedTeam>();
  for (const r of rows) {
    if (r.user_id === null) continue;
    players.push({
      userId: r.user_id,
      points: r.points,
      rank: r.rank,
      k: r.k,
      name: r.name,
      nickname: r.nickname,
      nameKana: r.name_kana,
    });
    if (r.team === null || r.team_rank === null) continue;
    const team = teams.get(r.team) ?? {
      team: r.team,
      points: r.team_points ?? 0,
      members: r.team_members ?? 0,
      rank: r.team_rank,
    };
    teams.set(r.team, team);
    teamOf.set(r.user_id, team);
  }
  const ranked = [...teams.values()].sort(
    (a, b) => a.rank - b.rank || (a.team < b.team ? -1 : a.team > b.team ? 1 : 0),
  );
  const standings = new Map<string, GameStanding>();
  for (const p of players) {
    const team = teamOf.get(p.userId);
    standings.set(p.userId, {
      points: p.points,
      rank: p.rank,
      players: players.length,
      nickname: nicknameOf(p.k),
      team: team ? { rank: team.rank, points: team.points, teams: teams.size } : null,
      podium: p.rank <= GAME_PODIUM ? p.rank : null,
    });
  }
  return { wholeSchool: rows[0]?.whole_school ?? false, players, teams: ranked, standings };
}

/**
 * The rankings of the game sessions asked together, in two statements side by side (`rankWithTyped`: the typed
 * answers' and RANKING_SQL with the sessions' ids; a third when a typed answer is right), one such read at a time
 * (oneBatchAtATime: the sessions asked while one runs go together in the next): when fifty teachers show the
 * leaderboard at once, the fifty classes' projectors and students make one or two. A session that is not a game has
 * none (null). Nothing is kept: each change reads again.
 */
export function rankingLoader(query: GameQuery): DataLoader<string, Ranking | null> {
  const { batch, batchScheduleFn } = oneBatchAtATime<string, Ranking | null>(async (ids) => {
    const bySession = new Map<string, RankingRow[]>();
    for (const row of await rankWithTyped<RankingRow>(query, RANKING_SQL, [...ids])) {
      const rows = bySession.get(row.session_id);
      if (rows) rows.push(row);
      else bySession.set(row.session_id, [row]);
    }
    return ids.map((id) => {
      const rows = bySession.get(id);
      return rows ? rankingOf(rows) : null;
    });
  });
  return new DataLoader<string, Ranking | null>(batch, { cache: false, maxBatchSize: 500, batchScheduleFn });
}

/** A session's ranking; with its activity, shared with the read of it in flight (rankingReads). */
export interface RankingReads {
  read(sessionId: string, activityId?: string): Promise<Ranking | null>;
}

/**
 * Reads of a session's ranking through `loader` that start while one is in flight share it, as long as no
 * notification of the session's activity arrived since it started (as the students' states are shared:
 * platform/notify/listen.ts sharedWhileCurrent): the projector's board and its students' standings,
 * notified by the same change, read it once. A read that does not name the activity reads on its own. `generationOf`:
 * how many notifications of an activity this process has received (a test's own).
 */
export function rankingReads(
  loader: Pick<DataLoader<string, Ranking | null>, "load">,
  generationOf = (activityId: string) => topicGeneration(`activity:${activityId}`),
): RankingReads {
  const shared = sharedWhileCurrent(
    (sessionId: string, _activityId: string) => loader.load(sessionId),
    (sessionId) => sessionId,
    (_sessionId, activityId) => generationOf(activityId),
  );
  return {
    read: (sessionId, activityId) =>
      activityId === undefined ? loader.load(sessionId) : shared(sessionId, activityId),
  };
}

const sharedRanking = globalThis as unknown as { manabiyaRankings?: RankingReads };

/**
 * The process's one ranking reader, read by the projectors' boards and the students' standings alike, so that one
 * change reads each session's ranking once: the production server's student streams give theirs (over their own
 * pool: features/play/server/stream-pool-queries.ts) when they start; otherwise the first caller's is made with
 * `make` (the app's, over Prisma). Shared through globalThis by the server script and Next.js's bundles.
 */
export function processRankings(make: () => DataLoader<string, Ranking | null>): RankingReads {
  return (sharedRanking.manabiyaRankings ??= rankingReads(make()));
}

/** Makes `own` the process's ranking reader (processRankings) until the returned function is called. */
export function provideRankings(own: RankingReads): () => void {
  sharedRanking.manabiyaRankings = own;
  return () => {
    if (sharedRanking.manabiyaRankings === own) sharedRanking.manabiyaRankings = undefined;
  };
}

/** A game session's players' own standings, read with its activity: the empty map for a session that is not a game. */
export type StandingsReader = (sessionId: string, activityId: string) => Promise<Standings>;

/** The players' own standings, from `rankings`. */
export function standingsFrom(rankings: () => RankingReads): StandingsReader {
  return async (sessionId, activityId) => (await rankings().read(sessionId, activityId))?.standings ?? new Map();
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
