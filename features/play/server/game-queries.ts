import "server-only";
import DataLoader from "dataloader";
import { oneBatchAtATime } from "@/platform/db/batches";
import { db } from "@/platform/db";
import { shownName } from "@/platform/names/person-name";
import { GAME_TOP, type GameBoard, type GameBoardView, type GameTeam, nicknameOf } from "../shared/game";
import { GAME_RANKING_CTES, type GameQuery, rankWithTyped, type Standings, standingsLoader } from "./game-standings";

/**
 * The leaderboards of game sessions in ONE statement ($1 the sessions, $2 their typed scenes' correct answers,
 * game-standings.ts `rankWithTyped`: read beside it), one row per session, each ranked on its own
 * (features/play/server/game-standings.ts): its players, the top GAME_TOP with what the board may name, its teams.
 * The comment names the statement where PostgreSQL shows it.
 */
export const BOARDS_MARK = "/* game: boards */";
const BOARD_SQL = `${BOARDS_MARK}${GAME_RANKING_CTES}
  select s.id::text as session_id, (select count(*)::int from ranked x where x.sid = s.id) as players,
    (select coalesce(json_agg(json_build_object('rank', t.rnk, 'points', t.points, 'k', t.k, 'name', t.name,
        'nickname', t.nickname, 'nameKana', t.name_kana) order by t.rnk, t.k), '[]')
      from (select * from ranked x where x.sid = s.id order by x.rnk, x.k limit ${GAME_TOP}) t) as top,
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
  teams: { team: string; points: number; members: number; rank: number }[];
  whole_school: boolean;
}

const prismaQuery: GameQuery = (sql, params) => db().$queryRawUnsafe(sql, ...params);

/** The boards of `sessionIds` (a session that is not a game has none). */
async function boardRows(sessionIds: string[]): Promise<Map<string, BoardRow>> {
  const rows = await rankWithTyped<BoardRow>(prismaQuery, BOARD_SQL, sessionIds);
  return new Map(rows.map((r) => [r.session_id, r]));
}

/**
 * The boards asked together, in ONE statement, one such read at a time (oneBatchAtATime: the boards asked while one
 * runs go together in the next): when fifty teachers show the leaderboard at once, the fifty projectors' reads make
 * one or two (features/play/server/projector-queries.ts). Nothing is kept.
 */
function sharedBoards(): DataLoader<string, BoardRow | null> {
  const g = globalThis as unknown as { manabiyaGameBoards?: DataLoader<string, BoardRow | null> };
  if (g.manabiyaGameBoards) return g.manabiyaGameBoards;
  const { batch, batchScheduleFn } = oneBatchAtATime<string, BoardRow | null>(async (ids) => {
    const rows = await boardRows([...ids]);
    return ids.map((id) => rows.get(id) ?? null);
  });
  return (g.manabiyaGameBoards = new DataLoader(batch, { cache: false, maxBatchSize: 500, batchScheduleFn }));
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
 * The players' own standings of the game sessions read together, over Prisma (features/play/server/game-standings.ts):
 * the app's student states carry each student's own (features/play/server/state-queries.ts).
 */
export function gameStandings(): DataLoader<string, Standings> {
  const g = globalThis as unknown as { manabiyaGameStandings?: DataLoader<string, Standings> };
  return (g.manabiyaGameStandings ??= standingsLoader(prismaQuery));
}
