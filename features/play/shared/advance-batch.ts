import type pg from "pg";
import { deviceOpenSql } from "@/platform/auth/device-sessions";
import { STAFF_IDLE_MINUTES } from "@/platform/auth/roles";
import { LIVE_CHANNEL } from "../../../platform/notify/channel";
import { GAME_VIEW_SET_SQL, moveSetSql, notifyParams, SESSION_KNOWN_SQL, SESSION_PICK_SQL } from "./advance";
import type { GameBoardView } from "./game";

/**
 * The production advance endpoint's presses in batches (features/play/server/advance-endpoint.ts):
 * the "next" presses and a game's leaderboard presses (ランキングを見せる, 表彰台, 名前を表示) that arrive
 * together — fifty teachers at the same moment — are checked AND applied by ONE statement (one round trip, one commit, the
 * notifications delivered together), as features/play/server/answer-writer.ts does for
 * answers. Each press is decided as on its own, as the server action decides it
 * (features/play/shared/advance.ts and getActor): the user re-read (gone, disabled, another
 * session version, the device signed out: UNAUTHENTICATED; a teacher or manager idle past
 * STAFF_IDLE_MINUTES: every session of theirs ended; the last use recorded);
 * the role (teacher, manager); the school scope as authorizeSchool decides it;
 * then the running session of an active guide-mode activity of that school
 * moved when the scene is the activity's (results hidden again on a new
 * scene), or its game view set when it is played as a game (setGameView's
 * statement, features/play/server/session-commands.ts), its audit entry and its notification. One statement moves an
 * activity (and touches a user) once: a second press of it waits for the
 * next statement, which starts after this one ends, so presses of one class
 * are applied in the order they came. Framework-free: no Next.js, no Prisma.
 */
const BATCH_SQL = `
  with req as (
    select * from unnest($1::int[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::int[], $7::text[], $9::uuid[], $10::uuid[],
      $11::boolean[], $12::boolean[], $13::text[], $14::boolean[])
      as r(i, activity_id, school_id, scene_id, user_id, session_version, payload, session_id, device_id,
        game, board_set, board, names)
  ), verdict as (
    select r.i, u.id, u.role::text as role,
           coalesce(u.last_active_at < now() - interval '1 minute', true) as touch,
           case
             when u.id is null or u.disabled or u.session_version <> r.session_version
               or not ${deviceOpenSql("u.id", "r.device_id")} then 'UNAUTHENTICATED'
             when u.role <> 'student' and u.last_active_at < now() - make_interval(mins => ${STAFF_IDLE_MINUTES}) then 'IDLE'
             when u.role not in ('teacher', 'manager') then 'FORBIDDEN'
           end as refusal,
           case u.role
             when 'teacher' then case when r.school_id is null or r.school_id = u.school_id then u.school_id end
             when 'manager' then (select s.id from schools s where s.id = r.school_id and s.academy_id = u.academy_id)
           end as school
    from req r left join lateral (select * from users u where u.id = r.user_id limit 1) u on true
  ), ended_sessions as (
    update users u set session_version = u.session_version + 1 from verdict v where u.id = v.id and v.refusal = 'IDLE' returning u.id
  ), touched as (
    update users u set last_active_at = now() from verdict v
    where u.id = v.id and v.role <> 'student' and v.touch and (v.refusal is null or v.refusal = 'FORBIDDEN') returning u.id
  ), picked as (
    -- the session each press addresses (a game press: only its session, running or not as a game)
    select r.i, gs.id from req r
    join verdict v on v.i = r.i and v.refusal is null
    join guide_sessions gs on gs.activity_id = r.activity_id and gs.ended_at is null and ${SESSION_PICK_SQL("gs", "r.session_id")}
    join activities a on a.id = gs.activity_id
    where a.school_id = v.school and a.status = 'active' and a.mode = 'guide'
  ), target as (
    select r.i, gs.id from req r
    join picked p on p.i = r.i
    join guide_sessions gs on gs.id = p.id
    -- checked again on the locked row: a lesson ended while this press waited for its lock is not moved
    where gs.ended_at is null and case when r.game then gs.game
      else exists (select 1 from activity_scenes sc where sc.id = r.scene_id and sc.activity_id = gs.activity_id) end
    -- locked in one order whoever locks them: two statements never wait on each other in a circle
    order by gs.id
    for update of gs
  ), scene_moved as (
    update guide_sessions gs set ${moveSetSql("r.scene_id")}
      version = gs.version + 1
    from target t join req r on r.i = t.i where gs.id = t.id and not r.game
    returning t.i
  ), game_set as (
    update guide_sessions gs set ${GAME_VIEW_SET_SQL("r.board_set", "r.board", "r.names")},
      version = gs.version + 1
    from target t join req r on r.i = t.i where gs.id = t.id and r.game
    returning t.i
  ), moved as (
    select i from scene_moved union all select i from game_set
  ), logged as (
    insert into audit_logs (actor_id, action, target_type, target_id, school_id)
    select r.user_id, case when r.game then 'guide.game' else 'guide.scene' end, 'activity', r.activity_id::text, v.school
    from moved m join req r on r.i = m.i join verdict v on v.i = m.i
    returning id
  ), notified as (
    select m.i, pg_notify($8, r.payload) from moved m join req r on r.i = m.i where exists (select 1 from logged)
  )
  select r.i, coalesce(v.refusal, 'OK') as refusal, v.school is not null as scoped, v.school::text as "schoolId",
         coalesce(n.moved, 0)::int as moved,
         exists (
           select 1 from guide_sessions gs join activities a on a.id = gs.activity_id
           where gs.activity_id = r.activity_id and gs.ended_at is null and a.school_id = v.school and a.status = 'active' and a.mode = 'guide'
         ) as running,
         exists (select 1 from picked p where p.i = r.i) as picked,
         ${SESSION_KNOWN_SQL("r.session_id", "r.activity_id", "v.school")} as known
  from req r
  left join verdict v on v.i = r.i
  left join (select i, count(*) as moved from notified group by i) n on n.i = r.i
  order by r.i`;

/** One press: the user as the session token names them, and the move (or the game view) asked. */
export interface Press {
  userId: string;
  sessionVersion: number;
  /** The token's device session (platform/auth/device-sessions.ts; null: none). */
  deviceId: string | null;
  activityId: string;
  schoolId: string | null;
  /** The scene to move to ("next"); null for a game press. */
  sceneId: string | null;
  /** A game press: the projector's board (undefined: unchanged) and its names (undefined: unchanged). */
  game: { board?: GameBoardView | null; names?: boolean } | null;
  /** The session the press addresses (null: the activity's only running one). */
  sessionId: string | null;
}

/** What the statement decided for a press (the endpoint turns it into the action's reply). */
export interface PressOutcome {
  refusal: "OK" | "UNAUTHENTICATED" | "IDLE" | "FORBIDDEN";
  scoped: boolean;
  /** the school the press is scoped to (null: none) */
  schoolId: string | null;
  moved: number;
  running: boolean;
  /** the press addresses a running session of the school (a game press on an ordinary lesson: true, not moved) */
  picked: boolean;
  known: boolean;
}

interface Pending {
  press: Press;
  resolve: (outcome: PressOutcome) => void;
  reject: (error: unknown) => void;
}

/** The statement's name: PostgreSQL plans it once per connection; none behind a transaction pooler (isPooled). */
const statementName = (named: boolean) => (named ? { name: "advance_batch" } : {});

/** The statement's parameters for these presses (none: the warm-up's). */
function batchValues(p: Press[]): unknown[] {
  return [
    p.map((_, i) => i),
    p.map((x) => x.activityId),
    p.map((x) => x.schoolId),
    p.map((x) => x.sceneId),
    p.map((x) => x.userId),
    p.map((x) => x.sessionVersion),
    p.map((x) => notifyParams(x.activityId)[1]),
    LIVE_CHANNEL,
    p.map((x) => x.sessionId),
    p.map((x) => x.deviceId),
    p.map((x) => x.game !== null),
    p.map((x) => x.game?.board !== undefined),
    p.map((x) => x.game?.board ?? null),
    p.map((x) => x.game?.names ?? null),
  ];
}

/** Decides and applies a batch of presses in one statement; the outcomes in the batch's order. */
async function queryBatch(pool: pg.Pool, named: boolean, batch: Pending[]): Promise<PressOutcome[]> {
  const { rows } = await pool.query<PressOutcome & { i: number }>({
    ...statementName(named),
    text: BATCH_SQL,
    values: batchValues(batch.map((b) => b.press)),
  });
  return rows.sort((a, b) => a.i - b.i);
}

/**
 * Opens the connections the statements run on and has PostgreSQL plan the statement on
 * each (it does nothing with no presses), so that the first "next" after a start waits
 * for neither a connection nor a plan (behind a transaction pooler: for no connection).
 */
async function warmBatchStatement(pool: pg.Pool, named: boolean, maxInFlight: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: maxInFlight }, () => pool.connect()));
  try {
    await Promise.all(
      clients.map((client) =>
        client.query({
          ...statementName(named),
          text: BATCH_SQL,
          values: batchValues([]),
        }),
      ),
    );
  } finally {
    for (const client of clients) client.release();
  }
}

/**
 * Gathers the presses of one turn of the event loop (and those that come while a
 * statement runs) into one statement; at most `maxInFlight` statements at once.
 * A statement that fails (a deadlock with another instance's, the database away)
 * is run again press by press, so one press's failure is its own.
 */
export function createPressBatcher(
  pool: pg.Pool,
  options: { maxInFlight?: number; maxBatch?: number; named?: boolean } = {},
) {
  const named = options.named ?? true;
  const maxInFlight = options.maxInFlight ?? 2;
  const maxBatch = options.maxBatch ?? 100;
  let queue: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;
  /** activities and users of the statements running: their next press waits for them */
  const busy = new Set<string>();

  const settle = async (batch: Pending[]) => {
    try {
      const outcomes = await queryBatch(pool, named, batch);
      batch.forEach((b, i) => b.resolve(outcomes[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const b of batch) await settle([b]);
    }
  };

  const flush = async () => {
    if (inFlight >= maxInFlight) return; // the statement that ends flushes again
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const keys: string[] = [];
    for (const pending of queue) {
      const { activityId, userId } = pending.press;
      if (batch.length < maxBatch && !busy.has(activityId) && !busy.has(userId)) {
        busy.add(activityId).add(userId);
        keys.push(activityId, userId);
        batch.push(pending);
      } else rest.push(pending);
    }
    queue = rest;
    if (batch.length === 0) return;
    if (rest.length > 0) schedule();
    inFlight += 1;
    try {
      await settle(batch);
    } finally {
      inFlight -= 1;
      for (const key of keys) busy.delete(key);
      if (queue.length > 0) schedule();
    }
  };

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    // everything that arrived in this turn of the event loop goes in the statement
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  }

  return {
    /** Connections opened and the statement planned before the first press (warmBatchStatement). */
    warm(): Promise<void> {
      return warmBatchStatement(pool, named, maxInFlight);
    },
    decide(press: Press): Promise<PressOutcome> {
      return new Promise((resolve, reject) => {
        queue.push({ press, resolve, reject });
        schedule();
      });
    },
  };
}
