/**
 * Game mode (a review lesson played for points, chosen when the session starts): the points rule and what the
 * leaderboard carries. Framework-free; the points are computed from stored times in SQL
 * (features/play/server/game-queries.ts), never taken from a device.
 */

/** A correct answer earns GAME_BASE_POINTS at once, falling linearly to half of it at GAME_SPEED_SECONDS and after. */
export const GAME_BASE_POINTS = 1000;
export const GAME_SPEED_SECONDS = 20;
/** How many players the projector's leaderboard lists, and the podium's places. */
export const GAME_TOP = 10;
export const GAME_PODIUM = 3;
/** The nicknames' animals (messages `Game.animals.0` … in every display language). */
export const GAME_ANIMALS = 24;

/** What the projector shows between questions (null: the scene). */
export type GameBoardView = "ranking" | "podium";
export const GAME_BOARD_VIEWS = ["ranking", "podium"] as const;

/** A session's game settings as every follower's state carries them. */
export interface GameState {
  board: GameBoardView | null;
  teams: boolean;
  names: boolean;
}

/** A player's nickname in the session: an animal (an index into the messages' list) and a number. */
export interface Nickname {
  animal: number;
  number: number;
}

/** The nickname of the `k`th student of the session's roster (in an order of the session's own). */
export const nicknameOf = (k: number): Nickname => ({
  animal: k % GAME_ANIMALS,
  number: Math.floor(k / GAME_ANIMALS) + 1,
});

/** A leaderboard row: ties share a rank; `name` only while the teacher shows names. */
export interface GamePlayer {
  rank: number;
  points: number;
  nickname: Nickname;
  name: string | null;
}

/** A team's total: a class (a whole-school session) or a counterbalance group (a class's session). */
export interface GameTeam {
  rank: number;
  points: number;
  members: number;
  klass: { grade: number; className: string } | null;
  group: string | null;
}

/** The projector's leaderboard. */
export interface GameBoard {
  view: GameBoardView;
  players: number;
  top: GamePlayer[];
  teams: GameTeam[] | null;
}

/**
 * A student's own standing, carried by their stream only while the board is shown: their points, rank among the
 * players, nickname, their team's rank and points among `teams` teams (null: no team), their podium place (null:
 * not on it). Nothing of another student's.
 */
export interface GameStanding {
  points: number;
  rank: number;
  players: number;
  nickname: Nickname;
  team: { rank: number; points: number; teams: number } | null;
  podium: number | null;
}
