import "server-only";
import { db } from "@/platform/db";
import { shownName } from "@/platform/names/person-name";
import { GAME_TOP, type GameBoard, type GameBoardView, type GameTeam, nicknameOf } from "../shared/game";
import {
  type GameQuery,
  processRankings,
  type RankedTeam,
  rankingLoader,
  standingsFrom,
  type StandingsReader,
} from "./game-standings";

const prismaQuery: GameQuery = (sql, params) => db().$queryRawUnsafe(sql, ...params);

/** The process's rankings (game-standings.ts processRankings): the student streams' loader, else one over Prisma. */
const rankings = () => processRankings(() => rankingLoader(prismaQuery));

function teamOf(t: RankedTeam, wholeSchool: boolean): GameTeam {
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
  opts: { names: boolean; teams: boolean; activityId?: string },
): Promise<GameBoard | null> {
  const ranking = await rankings().read(sessionId, opts.activityId);
  if (!ranking) return null;
  return {
    view,
    players: ranking.players.length,
    top: ranking.players.slice(0, GAME_TOP).map((p) => ({
      rank: p.rank,
      points: p.points,
      nickname: nicknameOf(p.k),
      name: opts.names ? (shownName({ name: p.name, nickname: p.nickname, nameKana: p.nameKana })?.base ?? null) : null,
    })),
    teams: opts.teams ? ranking.teams.map((t) => teamOf(t, ranking.wholeSchool)) : null,
  };
}

/**
 * The players' own standings of the game sessions read together, from the process's rankings (features/play/server/game-standings.ts):
 * the app's student states carry each student's own (features/play/server/state-queries.ts).
 */
export function gameStandings(): StandingsReader {
  return standingsFrom(rankings);
}
