import { type ActionResult, type ErrorCode, fail, ok } from "@/platform/errors";
import { LIVE_CHANNEL, livePayload } from "../../../platform/notify/channel";

/**
 * Moving the class to a scene ("next"), whoever serves it: the server action
 * (features/play/server/session-commands.ts goToScene) and the production server's endpoint
 * (features/play/server/advance-endpoint.ts) run this one statement. It locks and moves
 * the running session of an active guide-mode activity of the school when
 * the scene belongs to the activity (results are hidden again on a new
 * scene), writes the audit entry and notifies (delivered on commit, as
 * publish() inside a transaction would); when nothing moved it says why (a
 * session runs: the scene is not the activity's; none runs). Framework-free.
 */
/**
 * "gs is the session a control addresses": the one named by `sessionId` (an SQL uuid, possibly null), or,
 * when none is named, the activity's only running one (several classes running it at once:
 * docs/adr/0061-several-classes-at-once.md — then a control must name its session).
 */
export const SESSION_PICK_SQL = (gs: string, sessionId: string) =>
  `(case when ${sessionId} is null then not exists (select 1 from guide_sessions o where o.activity_id = ${gs}.activity_id and o.ended_at is null and o.id <> ${gs}.id) else ${gs}.id = ${sessionId} end)`;

/** "The session named (if any) is one of this activity's, of this school" (else the control answers NOT_FOUND). */
export const SESSION_KNOWN_SQL = (sessionId: string, activityId: string, school: string) =>
  `(${sessionId} is null or exists (select 1 from guide_sessions ks join activities ka on ka.id = ks.activity_id where ks.id = ${sessionId} and ks.activity_id = ${activityId} and ka.school_id = ${school}))`;

/**
 * What moving session `gs` to scene `scene` (an SQL uuid) sets, besides the version: both move statements
 * (this file's and advance-batch.ts's) use it.
 */
export const moveSetSql = (scene: string) => `
      show_results = case when gs.current_scene_id is distinct from ${scene} then false else gs.show_results end,
      -- the answer shown (「正解を見せる」) was this scene's: another, or coming back to it, starts unrevealed
      revealed_scene_id = case when gs.current_scene_id is distinct from ${scene} then null else gs.revealed_scene_id end,
      -- names and the projector's "starred only" are for one moment: a new scene starts without them
      show_names = gs.show_names and gs.current_scene_id is not distinct from ${scene},
      starred_only = gs.starred_only and gs.current_scene_id is not distinct from ${scene},
      -- a game's leaderboard is shown between questions: the next question takes its place
      game_board = case when gs.current_scene_id is distinct from ${scene} then null else gs.game_board end,
      -- a game's speed points count from when the scene first became current
      scene_starts = case when gs.game and gs.scene_starts -> (${scene})::text is null
        then gs.scene_starts || jsonb_build_object((${scene})::text, now()) else gs.scene_starts end,
      current_scene_id = ${scene},`;

/**
 * What a game press sets on session `gs` (SQL expressions: whether the board is set, the board, the names or null:
 * unchanged): the server action's statement (features/play/server/session-commands.ts setGameView) and the batch's.
 */
export const GAME_VIEW_SET_SQL = (boardSet: string, board: string, names: string) =>
  `game_board = case when ${boardSet} then ${board} else gs.game_board end, game_names = coalesce(${names}, gs.game_names)`;

export const moveCtes = (school: string) => `
  target as (
    select gs.id from guide_sessions gs join activities a on a.id = gs.activity_id
    where gs.activity_id = $1::uuid and gs.ended_at is null and ${SESSION_PICK_SQL("gs", "$7::uuid")}
      and a.school_id = ${school} and a.status = 'active' and a.mode = 'guide'
      and exists (select 1 from activity_scenes sc where sc.id = $3::uuid and sc.activity_id = gs.activity_id)
    for update of gs
  ), moved as (
    update guide_sessions gs set ${moveSetSql("$3::uuid")}
      version = gs.version + 1
    from target where gs.id = target.id
    returning gs.id
  ), logged as (
    insert into audit_logs (actor_id, action, target_type, target_id, school_id)
    select $4::uuid, 'guide.scene', 'activity', $1, ${school} from moved
    returning id
  ), notified as (
    select pg_notify($5, $6) from moved, logged
  )`;
export const moveColumns = (school: string) => `
  (select count(*) from notified)::int as moved,
  exists (
    select 1 from guide_sessions gs join activities a on a.id = gs.activity_id
    where gs.activity_id = $1::uuid and gs.ended_at is null and a.school_id = ${school} and a.status = 'active' and a.mode = 'guide'
  ) as running,
  ${SESSION_KNOWN_SQL("$7::uuid", "$1::uuid", school)} as known`;
/** With the school authorised ($2): parameters as moveParams gives them. */
export const MOVE_SQL = `with ${moveCtes("$2::uuid")} select ${moveColumns("$2::uuid")}`;

export interface MoveRow {
  moved: number;
  running: boolean;
  /** false: the session named is not one of the activity's of the school (NOT_FOUND) */
  known?: boolean;
}

/** MOVE_SQL's parameters, in order. */
export function moveParams(
  schoolId: string,
  actorId: string,
  activityId: string,
  sceneId: string,
  sessionId: string | null = null,
): (string | null)[] {
  return [activityId, schoolId, sceneId, actorId, ...notifyParams(activityId), sessionId];
}

/** $5 and $6: the channel and the notification's payload. */
export const notifyParams = (activityId: string): [string, string] => [
  LIVE_CHANNEL,
  livePayload(`activity:${activityId}`, "state"),
];

/** The action's result of MOVE_SQL's row. */
export function moveResult(row: MoveRow | undefined): ActionResult<null> {
  if (row && row.moved > 0) return ok(null);
  if (row?.known === false) return fail("NOT_FOUND");
  return row?.running ? fail("VALIDATION") : fail("CONFLICT", { session: ["notRunning"] });
}

/** The action's result of a game press (setGameView's replies, features/play/server/session-commands.ts). */
export function gameViewResult(
  row: { moved: number; picked: boolean; known?: boolean } | undefined,
): ActionResult<null> {
  if (row?.known === false) return fail("NOT_FOUND");
  if (row && row.moved > 0) return ok(null);
  return row?.picked ? fail("VALIDATION") : fail("CONFLICT", { session: ["notRunning"] });
}

/** The HTTP status of an action's result, as the advance endpoint and its route handler answer it. */
export function statusOf(result: ActionResult<unknown>): number {
  if (result.ok) return 200;
  const statuses: Record<ErrorCode, number> = {
    VALIDATION: 400,
    UNAUTHENTICATED: 401,
    FORBIDDEN: 403,
    NOT_FOUND: 404,
    CONFLICT: 409,
    RATE_LIMITED: 429,
    INTERNAL: 500,
  };
  return statuses[result.code];
}

/** The advance path: POST /api/v1/live/{activityId}/scene with `{ sceneId, schoolId? }`. */
export const ADVANCE_PATH = /^\/api\/v1\/live\/([^/?#]*)\/scene(?:\?.*)?$/;
/** A game's view: POST /api/v1/live/{activityId}/game with `{ board?, names?, schoolId?, sessionId? }`. */
export const GAME_VIEW_PATH = /^\/api\/v1\/live\/([^/?#]*)\/game(?:\?.*)?$/;
/** The most an advance (or game view) request may carry (bytes). */
export const MAX_ADVANCE_BODY = 4 * 1024;

/**
 * The action's raw input from a request body (text, or null past
 * MAX_ADVANCE_BODY) and the path's activity id; null when it is not JSON.
 */
export function advanceInputOf(text: string | null, activityId: string): Record<string, unknown> | null {
  if (text === null) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  return { ...(typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}), activityId };
}
