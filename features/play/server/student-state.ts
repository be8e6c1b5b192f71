import DataLoader from "dataloader";
import type { ActivityMode } from "@/features/activities/shared/modes";
import { classKeyOf, sessionOpenTo } from "../shared/klass";
import type { GameBoardView, GameStanding, GameState } from "../shared/game";
import type { Standings, StandingsReader } from "./game-standings";
import { sharedWhileCurrent, topicGeneration } from "../../../platform/notify/listen";

/**
 * The state every follower of a live session sees, read the same way by the app
 * (features/play/server/state-queries.ts, over Prisma) and by the production server's student
 * streams (features/play/server/stream-endpoint.ts, over node-postgres). Framework-free.
 */

/** A student counts as connected while their stream or poll refreshed presence in the last 35 s. */
export const PRESENCE_WINDOW_MS = 35_000;

/** What every follower of a live session sees. `version` orders states of one session: a client never goes back. */
export interface LiveState {
  activityId: string;
  mode: ActivityMode;
  sessionId: string | null;
  /** When the session started (ms): with `version`, orders every state of an activity. */
  sessionStartedAt: number;
  version: number;
  status: "waiting" | "running" | "ended";
  sceneId: string | null;
  locked: boolean;
  /** "Eyes on me": the teacher has blanked the students' screens (the scene stays answerable underneath). */
  paused: boolean;
  /**
   * The teacher has shown the class the current scene's correct answer (「正解を見せる」). Only the flag: each
   * student fetches their own ○/× and the key once it is set (features/play/server/live-feedback-queries.ts), so no
   * stream ever carries the key.
   */
  revealed: boolean;
  /**
   * The countdown on the current scene, if any: its end and the server's clock when this state was read
   * (ms; a device whose clock is wrong still counts down right), its length, whether answers close at zero.
   * Only a state with a timer carries a clock, so states without one stay the same between changes.
   */
  timer: { endsAt: number; now: number; seconds: number; locks: boolean } | null;
  /** The class the session is run for ("grade:className", features/play/shared/klass.ts); null: the whole school. */
  classKey: string | null;
  /** Game mode (null: an ordinary lesson): what the projector shows between questions and the teacher's choices. */
  game: GameState | null;
  /**
   * While a game's board is shown: this student's own standing (stateForStudent), read once per change for the
   * whole session (features/play/server/game-standings.ts); null otherwise, and in every state but a student's own.
   */
  standing: GameStanding | null;
}

export interface SessionRow {
  id: string;
  mode: ActivityMode;
  session_id: string | null;
  version: number | null;
  started_at: Date | null;
  current_scene_id: string | null;
  locked_scene_ids: string[] | null;
  show_results: boolean | null;
  show_names: boolean | null;
  starred_only: boolean | null;
  paused: boolean | null;
  revealed_scene_id: string | null;
  timer_scene_id: string | null;
  timer_ends_at: Date | null;
  timer_seconds: number | null;
  timer_locks: boolean | null;
  ended_at: Date | null;
  grade: number | null;
  class_name: string | null;
  game: boolean | null;
  game_teams: boolean | null;
  game_names: boolean | null;
  game_board: string | null;
}

const SESSION_COLUMNS = `a.id::text, a.mode::text as mode, gs.id::text as session_id, gs.version, gs.started_at, gs.current_scene_id::text,
         gs.locked_scene_ids::text[], gs.show_results, gs.show_names, gs.starred_only, gs.paused, gs.revealed_scene_id::text,
         gs.timer_scene_id::text, gs.timer_ends_at, gs.timer_seconds, gs.timer_locks, gs.ended_at, gs.grade, gs.class_name,
         gs.game, gs.game_teams, gs.game_names, gs.game_board`;

/**
 * The sessions of activity `a` a follower may be shown: the latest of each class (and of the whole school) —
 * so every running one (one per class) and, for a class whose session ended, that one ended; `extra`: one more by id.
 */
const shownSessions = (extra = "") => `
  left join lateral (
    (select distinct on (coalesce(s.grade, 0), coalesce(s.class_name, '')) s.* from guide_sessions s where s.activity_id = a.id
      order by coalesce(s.grade, 0), coalesce(s.class_name, ''), s.started_at desc limit 100)
    ${extra}
  ) gs on true`;

/** The activities' ($1, uuid[]) mode and sessions (the latest of each class: several classes may run it at once); one row per session. */
export const SESSIONS_SQL = `select ${SESSION_COLUMNS} from activities a ${shownSessions()} where a.id = any($1::uuid[])`;

/** As SESSIONS_SQL for one activity ($1) and also the session $2 (a teacher's chosen one, when a later one of its class followed). */
export const STAFF_SESSIONS_SQL = `select ${SESSION_COLUMNS} from activities a ${shownSessions("union select x.* from guide_sessions x where x.activity_id = a.id and x.id = $2::uuid")} where a.id = $1::uuid`;

/** An activity's rows, latest session first. */
export function sortRows(rows: SessionRow[]): SessionRow[] {
  return [...rows].sort(
    (x, y) =>
      (y.started_at ? new Date(y.started_at).getTime() : 0) - (x.started_at ? new Date(x.started_at).getTime() : 0),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The rows of every activity asked in the same turn of the event loop, in ONE query:
 * when fifty classes move on at once, the notifications arrive together and their
 * reads go as one.
 */
export function sessionRowLoader(
  query: (ids: string[]) => Promise<SessionRow[]>,
): DataLoader<string, SessionRow[] | null> {
  return new DataLoader<string, SessionRow[] | null>(
    async (asked) => {
      const rows = await query(asked.filter((id) => UUID.test(id)));
      const byId = new Map<string, SessionRow[]>();
      for (const r of rows) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
      return asked.map((id) => {
        const found = byId.get(id);
        return found ? sortRows(found) : null;
      });
    },
    { cache: false, maxBatchSize: 500 },
  );
}

export function sessionOfRow(row: SessionRow) {
  const session = row.session_id
    ? {
        id: row.session_id,
        version: row.version ?? 0,
        startedAt: new Date(row.started_at!),
        currentSceneId: row.current_scene_id,
        lockedSceneIds: row.locked_scene_ids ?? [],
        showResults: Boolean(row.show_results),
        showNames: Boolean(row.show_names),
        starredOnly: Boolean(row.starred_only),
        paused: Boolean(row.paused),
        revealedSceneId: row.revealed_scene_id,
        endedAt: row.ended_at,
        classKey: classKeyOf(row.grade, row.class_name),
        klass: row.grade !== null && row.class_name !== null ? { grade: row.grade, className: row.class_name } : null,
        game: row.game
          ? {
              board: (row.game_board as GameBoardView | null) ?? null,
              teams: Boolean(row.game_teams),
              names: Boolean(row.game_names),
            }
          : null,
        timer:
          row.timer_scene_id && row.timer_ends_at
            ? {
                sceneId: row.timer_scene_id,
                endsAt: new Date(row.timer_ends_at).getTime(),
                seconds: row.timer_seconds ?? 0,
                locks: Boolean(row.timer_locks),
              }
            : null,
      }
    : null;
  return { activity: { id: row.id, mode: row.mode }, session };
}

export function baseState(loaded: ReturnType<typeof sessionOfRow>): LiveState {
  const { activity, session } = loaded;
  const running = session && !session.endedAt && activity.mode === "guide";
  return {
    activityId: activity.id,
    mode: activity.mode,
    sessionId: session?.id ?? null,
    sessionStartedAt: session?.startedAt.getTime() ?? 0,
    version: session?.version ?? 0,
    status: running ? "running" : session?.endedAt ? "ended" : "waiting",
    sceneId: running ? session.currentSceneId : null,
    locked: Boolean(running && session.currentSceneId && session.lockedSceneIds.includes(session.currentSceneId)),
    paused: Boolean(running && session.paused),
    revealed: Boolean(running && session.currentSceneId && session.revealedSceneId === session.currentSceneId),
    timer:
      running && session.timer && session.timer.sceneId === session.currentSceneId
        ? { endsAt: session.timer.endsAt, now: Date.now(), seconds: session.timer.seconds, locks: session.timer.locks }
        : null,
    classKey: session?.classKey ?? null,
    game: running ? session.game : null,
    standing: null,
  };
}

/** The states of an activity's rows (latest session first: sortRows), one per session shown. */
export function statesOfRows(rows: SessionRow[] | null): LiveState[] | null {
  return rows ? rows.map((row) => baseState(sessionOfRow(row))) : null;
}

/** An activity's states (statesOfRows) and, for each session showing a game's board, its players' standings. */
export interface ActivityRead {
  states: LiveState[] | null;
  standings: ReadonlyMap<string, Standings>;
}

/**
 * The standings of `states`' sessions that show a game's board, from `standings` (its loader reads the sessions of
 * the activities read together in one statement): once per change for every student of the session.
 */
export async function readActivity(states: LiveState[] | null, standings: StandingsReader): Promise<ActivityRead> {
  const shown = (states ?? []).filter((s) => s.status === "running" && s.sessionId && s.game?.board);
  const read = await Promise.all(shown.map((s) => standings(s.sessionId!, s.activityId)));
  return { states, standings: new Map(shown.map((s, i) => [s.sessionId!, read[i]!])) };
}

/**
 * The state student `userId` of `studentClass` sees (stateForClass) with their own standing while their session shows
 * a game's board: a state of their own then (nobody else's row is in it), else the state their class shares.
 */
export function stateForStudent(read: ActivityRead, studentClass: string | null, userId: string): LiveState | null {
  const state = stateForClass(read.states, studentClass);
  const standing = state?.sessionId ? read.standings.get(state.sessionId)?.get(userId) : undefined;
  return state && standing ? { ...state, standing } : state;
}

const notForThisClass = new WeakMap<LiveState, LiveState>();

/**
 * The state as a student of `studentClass` sees it, of an activity's states (latest session first):
 * the running session of their own class, else the whole school's running one, else the latest
 * session open to them (ended); a session run for another class is, for them, no session at all
 * (the waiting screen; docs/adr/0060-live-sessions-for-one-class.md, docs/adr/0061-several-classes-at-once.md).
 * The same object for every student of a state, so the class's streams still serialise it once.
 */
export function stateForClass(
  states: LiveState | readonly LiveState[] | null,
  studentClass: string | null,
): LiveState | null {
  const list: readonly LiveState[] = states === null ? [] : Array.isArray(states) ? states : [states as LiveState];
  const running = list.filter((s) => s.status === "running");
  const own =
    running.find((s) => s.classKey !== null && s.classKey === studentClass) ?? running.find((s) => s.classKey === null);
  if (own) return own;
  // no session of theirs runs: their class's (or the whole school's) latest, ended; else the waiting screen
  const theirs = list.find((s) => sessionOpenTo(s.classKey, studentClass));
  if (theirs) return theirs;
  const state = list[0] ?? null;
  if (!state) return state;
  let other = notForThisClass.get(state);
  if (!other) {
    other = {
      ...state,
      sessionId: null,
      sessionStartedAt: 0,
      version: 0,
      status: "waiting",
      sceneId: null,
      locked: false,
      paused: false,
      revealed: false,
      timer: null,
      game: null,
      standing: null,
    };
    notForThisClass.set(state, other);
  }
  return other;
}

/**
 * Reads of the same activity's student state that start while one is in
 * flight share it, as long as no notification for the activity arrived since
 * it started (then it may predate the change, and a new read starts). So a
 * teacher's advance costs one query per instance, not one per student, and
 * the class's streams share one state object (serialised once: features/play/server/stream-core.ts).
 */
export function sharedStudentReads<T>(read: (activityId: string) => Promise<T>): (activityId: string) => Promise<T> {
  return sharedWhileCurrent(
    read,
    (activityId) => activityId,
    (activityId) => topicGeneration(`activity:${activityId}`),
  );
}
