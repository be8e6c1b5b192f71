import "server-only";
import DataLoader from "dataloader";
import { db } from "@/platform/db";
import { shownName } from "@/platform/names/person-name";
import { correctSql, hasKeySql, KEYED_TYPES_SQL, keyColumnsSql, secondKeySql } from "@/features/scenes/shared/key-sql";
import {
  GAME_BASE_POINTS,
  GAME_SPEED_SECONDS,
  GAME_TOP,
  type GameBoard,
  type GameBoardView,
  type GameStanding,
  type GameTeam,
  nicknameOf,
} from "../shared/game";
import { followedSession } from "./live-feedback-commands";

/**
 * The leaderboards of game sessions in ONE statement ($1 the sessions, $2 a student whose own row is wanted, or
 * null), one row per session; each session's board is computed on its own:
 * - the roster: the school's enabled students of the session's class (every one for a whole-school session), each
 *   numbered in an order of the session's own (md5 of session and student), which makes their nickname: stable for
 *   the session, unrelated to their name or class number;
 * - points: per answer given in this session to a scene with a key (the key of the answer's scene version, the
 *   statistics' rules, features/scenes/shared/key-sql.ts), a correct one earns the base points falling to half over
 *   GAME_SPEED_SECONDS from when the scene first became current (`scene_starts`) to the answer's last save: a
 *   change of answer is saved later and never earns more; a wrong one earns nothing;
 * - the players: roster students who joined the session (presence) or answered in it; ties share a rank;
 * - teams: classes (a whole-school session) or counterbalance groups (a class's), by total.
 */
const BOARD_SQL = `
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
    where sc.type in ${KEYED_TYPES_SQL} and ${hasKeySql("sc.content", "sc.type")}
      and s.scene_starts->(sc.id::text) is not null
  ), pts as (
    select k.sid, r.user_id, sum(case when ${correctSql("k", "r")}
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
  )
  select s.id::text as session_id, (select count(*)::int from ranked x where x.sid = s.id) as players,
    (select coalesce(json_agg(json_build_object('rank', t.rnk, 'points', t.points, 'k', t.k, 'name', t.name,
        'nickname', t.nickname, 'nameKana', t.name_kana) order by t.rnk, t.k), '[]')
      from (select * from ranked x where x.sid = s.id order by x.rnk, x.k limit ${GAME_TOP}) t) as top,
    (select json_build_object('rank', rnk, 'points', points, 'k', k) from ranked x where x.sid = s.id and x.id = $2::uuid) as me,
    (select coalesce(json_agg(json_build_object('team', team, 'points', points, 'members', members,
        'rank', rnk) order by rnk, team), '[]') from teams t where t.sid = s.id) as teams,
    s.grade is null as whole_school
  from s`;

interface BoardRow {
  session_id: string;
  players: number;
  top: {
    rank: number;
    points: number;
    k: number;
    name: string | null;
    nickname: string | null;
    nameKana: string | null;
  }[];
  me: { rank: number; points: number; k: number } | null;
  teams: { team: string; points: number; members: number; rank: number }[];
  whole_school: boolean;
}

/** The boards of `sessionIds` (a session that is not a game has none), with `userId`'s own row. */
async function boardRows(sessionIds: string[], userId: string | null): Promise<Map<string, BoardRow>> {
  const rows = await db().$queryRawUnsafe<BoardRow[]>(BOARD_SQL, sessionIds, userId);
  return new Map(rows.map((r) => [r.session_id, r]));
}

async function boardRow(sessionId: string, userId: string | null): Promise<BoardRow | null> {
  return (await boardRows([sessionId], userId)).get(sessionId) ?? null;
}

/**
 * The boards asked in the same turn of the event loop, in ONE statement: when fifty teachers show the leaderboard
 * at once, the fifty projectors' reads arrive together (features/play/server/projector-queries.ts). Nothing is kept.
 */
function sharedBoards(): DataLoader<string, BoardRow | null> {
  const g = globalThis as unknown as { manabiyaGameBoards?: DataLoader<string, BoardRow | null> };
  return (g.manabiyaGameBoards ??= new DataLoader<string, BoardRow | null>(
    async (ids) => {
      const rows = await boardRows([...ids], null);
      return ids.map((id) => rows.get(id) ?? null);
    },
    { cache: false, maxBatchSize: 500 },
  ));
}

function teamOf(t: BoardRow["teams"][number], wholeSchool: boolean): GameTeam {
  const [grade, ...rest] = t.team.split(":");
  return {
    rank: Number(t.rank),
    points: t.points,
    members: t.members,
    klass: wholeSchool ? { grade: Number(grade), className: rest.join(":") } : null,
    group: wholeSchool ? null : t.team,
  };
}

/**
 * The leaderboard the projector shows (`view`) for a game session: the top players by nickname, or by name only
 * when `names`; team totals when `teams`. Null for a session that is not a game.
 */
export async function gameBoardOf(
  sessionId: string,
  view: GameBoardView,
  opts: { names: boolean; teams: boolean },
): Promise<GameBoard | null> {
  const row = await sharedBoards().load(sessionId);
  if (!row) return null;
  return {
    view,
    players: row.players,
    top: row.top.map((p) => ({
      rank: p.rank,
      points: p.points,
      nickname: nicknameOf(p.k),
      name: opts.names ? (shownName({ name: p.name, nickname: p.nickname, nameKana: p.nameKana })?.base ?? null) : null,
    })),
    teams: opts.teams ? row.teams.map((t) => teamOf(t, row.whole_school)) : null,
  };
}

/**
 * A student's own standing in the game session they follow, once its teacher shows the leaderboard or the podium:
 * null otherwise (no game, the scene on screen, another class's session, another school's activity). Nobody else's
 * name or standing leaves here.
 */
export async function gameStandingFor(
  student: { id: string; schoolId: string },
  activityId: string,
): Promise<GameStanding | null> {
  const state = await followedSession(student, activityId);
  if (!state?.sessionId || !state.game?.board) return null;
  const row = await boardRow(state.sessionId, student.id);
  if (!row?.me) return null;
  return { points: row.me.points, rank: row.me.rank, players: row.players, nickname: nicknameOf(row.me.k) };
}
