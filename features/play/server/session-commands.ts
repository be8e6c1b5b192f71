import "server-only";
import { audit, logAudit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import type { SchoolCtx } from "@/features/people/server/school-action";
import {
  GAME_VIEW_SET_SQL,
  gameViewResult,
  MOVE_SQL,
  type MoveRow,
  moveParams,
  moveResult,
  notifyParams,
  SESSION_KNOWN_SQL,
  SESSION_PICK_SQL,
} from "../shared/advance";
import { publish } from "../../../platform/notify/bus";
import { classKeyOf } from "../shared/klass";
import { presenceWriter } from "../shared/presence";
import { publishEnded } from "@/features/activities/server/session-events";
import type { SessionClass } from "../shared/schema";
import type { GameBoardView } from "../shared/game";
import { sceneHasKey } from "@/features/scenes/shared/key";
import { sceneSchema } from "@/features/scenes/shared/schema";

type Tx = Prisma.TransactionClient;

/**
 * The running session a control addresses (inside `tx`): the one named (NOT_FOUND when it is not one of
 * this activity's of the school; CONFLICT when it has ended), or the activity's only running one
 * (CONFLICT when none runs, or several do: then the control must name one).
 */
async function targetSession(tx: Tx, ctx: SchoolCtx, activityId: string, sessionId: string | undefined) {
  const where = { activityId, activity: { schoolId: ctx.schoolId } };
  const select = {
    id: true,
    endedAt: true,
    currentSceneId: true,
    lockedSceneIds: true,
    game: true,
    activity: { select: { status: true, mode: true } },
  } as const;
  const found = sessionId
    ? await tx.guideSession.findMany({ where: { ...where, id: sessionId }, select })
    : await tx.guideSession.findMany({ where: { ...where, endedAt: null }, select, take: 2 });
  if (sessionId && found.length === 0) return fail("NOT_FOUND");
  const session = found[0];
  if (
    !session ||
    found.length > 1 ||
    session.endedAt ||
    session.activity.status !== "active" ||
    session.activity.mode !== "guide"
  ) {
    return fail("CONFLICT", { session: [found.length > 1 ? "chooseSession" : "notRunning"] });
  }
  return ok(session);
}

/**
 * Starts the live session for `klass` (a class of the school's students) or the whole school (null),
 * switching the activity to guide mode when it is not, on the first scene. Several classes may run the
 * activity at once, each its own session: a session already running for the same
 * class is kept as it is; the whole school's excludes every class's and they it (CONFLICT), decided
 * under the activity's row lock (docs/adr/0061-several-classes-at-once.md; the unique index
 * guide_sessions_one_running_per_class holds one per class even without it).
 * Refused for another school's, an archived, a teacher-actor or an empty activity, and a class no student is in.
 * `game`: the session is played for points (features/play/shared/game.ts), with teams and names as chosen; a
 * session already running keeps how it was started.
 */
export async function startSession(
  ctx: SchoolCtx,
  activityId: string,
  klass: SessionClass | null = null,
  game: { teams: boolean; names: boolean } | null = null,
): Promise<ActionResult<{ sessionId: string }>> {
  return db().$transaction(async (tx) => {
    const activity = await tx.activity.findFirst({
      where: { id: activityId, schoolId: ctx.schoolId, status: "active", actorType: "student" },
      select: { id: true, mode: true, scenes: { orderBy: { position: "asc" }, take: 1, select: { id: true } } },
    });
    if (!activity) return fail("NOT_FOUND");
    const first = activity.scenes[0];
    if (!first) return fail("VALIDATION", { scenes: ["noScenes"] });
    // the row lock serialises two teachers pressing "start" at once
    await tx.$executeRaw`select id from activities where id = ${activityId}::uuid for update`;
    if (
      klass &&
      !(await tx.studentDetail.findFirst({
        where: { grade: klass.grade, className: klass.className, user: { schoolId: ctx.schoolId, role: "student" } },
        select: { userId: true },
      }))
    ) {
      return fail("VALIDATION", { klass: ["unknownClass"] });
    }
    const running = await tx.guideSession.findMany({
      where: { activityId, endedAt: null },
      select: { id: true, grade: true, className: true },
    });
    if (activity.mode === "guide") {
      const wanted = classKeyOf(klass?.grade, klass?.className);
      const same = running.find((r) => classKeyOf(r.grade, r.className) === wanted);
      if (same) return ok({ sessionId: same.id });
      // the whole school's session and a class's exclude each other; two classes' do not
      if (running.some((r) => wanted === null || classKeyOf(r.grade, r.className) === null))
        return fail("CONFLICT", { session: ["otherClass"] });
    } else {
      // sessions left running while the activity was not in guide mode are over
      if (running.length > 0)
        await tx.guideSession.updateMany({
          where: { activityId, endedAt: null },
          data: { endedAt: new Date(), version: { increment: 1 } },
        });
      await tx.activity.update({
        where: { id: activityId },
        data: { mode: "guide", version: { increment: 1 } },
        select: { id: true },
      });
    }
    // the students' homes show 参加する from now on
    await publish(`school:${ctx.schoolId}`, "modes", tx);
    const session = await tx.guideSession.create({
      data: {
        activityId,
        startedById: ctx.actorId,
        currentSceneId: first.id,
        grade: klass?.grade ?? null,
        className: klass?.className ?? null,
        game: game !== null,
        gameTeams: game?.teams ?? false,
        gameNames: game?.names ?? false,
      },
      select: { id: true },
    });
    // a game's first scene is current from the start: its speed points count from the database's clock, as answers' times do
    if (game)
      await tx.$executeRaw`update guide_sessions set scene_starts = jsonb_build_object(current_scene_id::text, started_at) where id = ${session.id}::uuid`;
    await audit(
      {
        action: "guide.start",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
        meta: { sessionId: session.id },
      },
      tx,
    );
    await publish(`activity:${activityId}`, "state", tx);
    return ok({ sessionId: session.id });
  });
}

/** Applies a change to the running session (version + 1, everyone notified on commit). */
/**
 * The addressed session, read after its row is locked (FOR UPDATE): two changes of it apply one after the other, and a
 * change that waited behind the teacher ending the lesson finds it ended (CONFLICT) instead of changing it.
 */
async function lockedSession(tx: Tx, ctx: SchoolCtx, activityId: string, sessionId: string | undefined) {
  let id = sessionId;
  if (!id) {
    const running = await targetSession(tx, ctx, activityId, undefined);
    if (!running.ok) return running;
    id = running.data.id;
  }
  await tx.$executeRaw`select id from guide_sessions where id = ${id}::uuid for update`;
  return targetSession(tx, ctx, activityId, id);
}

async function changeSession(
  ctx: SchoolCtx,
  target: { activityId: string; sessionId?: string },
  action: string,
  change: (
    session: { id: string; currentSceneId: string | null; lockedSceneIds: string[]; game: boolean },
    tx: Tx,
  ) => Promise<Prisma.GuideSessionUpdateInput | "invalid">,
): Promise<ActionResult<null>> {
  const { activityId } = target;
  return db().$transaction(async (tx) => {
    const found = await lockedSession(tx, ctx, activityId, target.sessionId);
    if (!found.ok) return found;
    const session = found.data;
    const data = await change(session, tx);
    if (data === "invalid") return fail("VALIDATION");
    await tx.guideSession.update({
      where: { id: session.id },
      data: { ...data, version: { increment: 1 } },
      select: { id: true },
    });
    await audit(
      {
        action,
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
        meta: { sessionId: session.id },
      },
      tx,
    );
    await publish(`activity:${activityId}`, "state", tx);
    // the students' homes take 参加する away when the session ends
    if (data.endedAt) await publish(`school:${ctx.schoolId}`, "modes", tx);
    return ok(null);
  });
}

/**
 * Moves the class to one of the activity's scenes. The teacher presses this
 * every minute with the class waiting, so it is one statement, not a
 * transaction of six round trips (features/play/shared/advance.ts).
 */
export async function goToScene(
  ctx: SchoolCtx,
  activityId: string,
  sceneId: string,
  sessionId?: string,
): Promise<ActionResult<null>> {
  const rows = await db().$queryRawUnsafe<MoveRow[]>(
    MOVE_SQL,
    ...moveParams(ctx.schoolId, ctx.actorId, activityId, sceneId, sessionId ?? null),
  );
  return moveResult(rows[0]);
}

export function setSessionFlags(
  ctx: SchoolCtx,
  activityId: string,
  flags: { showResults?: boolean; showNames?: boolean; starredOnly?: boolean },
  sessionId?: string,
) {
  return changeSession(ctx, { activityId, sessionId }, "guide.flags", async () => flags);
}

/**
 * "Eyes on me" as one statement, not a transaction of six round trips: the teacher presses it with
 * the class waiting (the target: every student's screen within 100 ms, `npm run bench -- --only=live-controls`).
 * As changeSession: the running session of the school's active guide-mode activity, version + 1,
 * the audit entry, everyone notified on commit; nothing running is CONFLICT.
 */
/**
 * One statement changing the addressed running session ($1 activity, $2 school, $4 actor, $5 audit action, $6/$7 the
 * notification, $8 the session named or null) by `set`, where `only` holds of it; `picked`: such a session runs,
 * whether or not `only` holds. The locked row is checked to be running again: a press that waited behind the teacher
 * ending the lesson changes nothing.
 */
const sessionChangeSql = (set: string, only = "true") => `
  with picked as (
    select gs.id, ${only} as fits from guide_sessions gs join activities a on a.id = gs.activity_id
    where gs.activity_id = $1::uuid and gs.ended_at is null and a.school_id = $2::uuid and a.status = 'active' and a.mode = 'guide'
      and ${SESSION_PICK_SQL("gs", "$8::uuid")}
  ), target as (
    select gs.id from guide_sessions gs join picked p on p.id = gs.id where p.fits and gs.ended_at is null for update of gs
  ), changed as (
    update guide_sessions gs set ${set}, version = gs.version + 1 from target where gs.id = target.id returning gs.id
  ), logged as (
    insert into audit_logs (actor_id, action, target_type, target_id, school_id)
    select $4::uuid, $5::text, 'activity', $1, $2::uuid from changed
    returning id
  ), notified as (
    select pg_notify($6, $7) from changed, logged
  )
  select (select count(*) from notified)::int as moved, exists (select 1 from picked) as picked,
    ${SESSION_KNOWN_SQL("$8::uuid", "$1::uuid", "$2::uuid")} as known`;
const PAUSE_SQL = sessionChangeSql("paused = $3::boolean");

/** "Eyes on me": blanks every student screen of the running session, or brings the scene back. */
export async function setSessionPaused(
  ctx: SchoolCtx,
  activityId: string,
  paused: boolean,
  sessionId?: string,
): Promise<ActionResult<null>> {
  const rows = await db().$queryRawUnsafe<{ moved: number; known: boolean }[]>(
    PAUSE_SQL,
    activityId,
    ctx.schoolId,
    paused,
    ctx.actorId,
    paused ? "guide.pause" : "guide.resume",
    ...notifyParams(activityId),
    sessionId ?? null,
  );
  if (rows[0]?.known === false) return fail("NOT_FOUND");
  if (!rows[0]?.moved) return fail("CONFLICT", { session: ["notRunning"] });
  logAudit({
    action: paused ? "guide.pause" : "guide.resume",
    actorId: ctx.actorId,
    schoolId: ctx.schoolId,
    targetType: "activity",
    targetId: activityId,
  });
  return ok(null);
}

/**
 * Starts a countdown of `seconds` on the current scene (replacing any earlier one), or stops it (null).
 * At zero the students' answers close when `locks`; an answer arriving later is kept all the same and
 * marked late by the answer writer (features/play/shared/answer-writer-sql.ts).
 */
export function setSessionTimer(
  ctx: SchoolCtx,
  activityId: string,
  timer: { seconds: number; locks: boolean } | null,
  sessionId?: string,
) {
  return changeSession(ctx, { activityId, sessionId }, timer ? "guide.timer" : "guide.timer.stop", async (session) => {
    if (!timer) return { timerSceneId: null, timerEndsAt: null, timerSeconds: null, timerLocks: false };
    if (!session.currentSceneId) return "invalid";
    return {
      timerSceneId: session.currentSceneId,
      timerEndsAt: new Date(Date.now() + timer.seconds * 1000),
      timerSeconds: timer.seconds,
      timerLocks: timer.locks,
    };
  });
}

/** Locks (or unlocks) answers to the current scene. */
export function setSceneLocked(ctx: SchoolCtx, activityId: string, locked: boolean, sessionId?: string) {
  return changeSession(ctx, { activityId, sessionId }, locked ? "guide.lock" : "guide.unlock", async (session) => {
    const current = session.currentSceneId;
    if (!current) return "invalid";
    const others = session.lockedSceneIds.filter((id) => id !== current);
    return { lockedSceneIds: locked ? [...others, current] : others };
  });
}

/**
 * Shows the class the current scene's correct answer (「正解を見せる」), or hides it again. Showing it also locks the
 * scene (an answer changed after seeing the key would count for nothing): hiding it leaves the lock to the teacher.
 * Refused (VALIDATION) for a scene without a key: there is nothing to show. The next scene starts unrevealed
 * (revealed_scene_id names this one only).
 */
export function setSceneRevealed(ctx: SchoolCtx, activityId: string, revealed: boolean, sessionId?: string) {
  return changeSession(
    ctx,
    { activityId, sessionId },
    revealed ? "guide.reveal" : "guide.unreveal",
    async (session, tx) => {
      const current = session.currentSceneId;
      if (!current) return "invalid";
      if (!revealed) return { revealedSceneId: null };
      const stored = await tx.activityScene.findFirst({
        where: { id: current, activityId },
        select: { type: true, content: true },
      });
      const parsed = stored ? sceneSchema.safeParse({ type: stored.type, content: stored.content }) : null;
      if (!parsed?.success || !sceneHasKey(parsed.data)) return "invalid";
      const others = session.lockedSceneIds.filter((id) => id !== current);
      return { revealedSceneId: current, lockedSceneIds: [...others, current] };
    },
  );
}

/**
 * Hides one word of the current word cloud scene from the class (「隠す」), or shows it again: `key` is the word's
 * grouping key (features/scenes/shared/word-cloud.ts `wordKey`), kept in guide_sessions.hidden_words under the scene,
 * so the projector's state leaves every spelling of it out (features/play/server/state-queries.ts sceneResults).
 * A change of the session like the others (version + 1, audited, everyone notified); VALIDATION when the current
 * scene is not a word cloud.
 */
export function setWordHidden(ctx: SchoolCtx, activityId: string, key: string, hidden: boolean, sessionId?: string) {
  return changeSession(
    ctx,
    { activityId, sessionId },
    hidden ? "guide.word.hide" : "guide.word.show",
    async (session, tx) => {
      const current = session.currentSceneId;
      if (!current) return "invalid";
      const [scene, row] = await Promise.all([
        tx.activityScene.findFirst({ where: { id: current, activityId }, select: { type: true } }),
        tx.guideSession.findUniqueOrThrow({ where: { id: session.id }, select: { hiddenWords: true } }),
      ]);
      if (scene?.type !== "word_cloud") return "invalid";
      const all = (row.hiddenWords ?? {}) as Record<string, string[]>;
      const others = (all[current] ?? []).filter((k) => k !== key);
      return { hiddenWords: { ...all, [current]: hidden ? [...others, key] : others } };
    },
  );
}

/** The teacher presses it with the class waiting, fifty classes at once: one statement, as "eyes on me". */
const GAME_VIEW_SQL = sessionChangeSql(GAME_VIEW_SET_SQL("$3::boolean", "$9::text", "$10::boolean"), "gs.game");

/**
 * A game session's projector between questions (`board`: the leaderboard, the podium, or null: the scene) and
 * whether its leaderboard names the players (`names`). Refused (VALIDATION) for a session not played as a game.
 */
export async function setGameView(
  ctx: SchoolCtx,
  activityId: string,
  view: { board?: GameBoardView | null; names?: boolean },
  sessionId?: string,
): Promise<ActionResult<null>> {
  const rows = await db().$queryRawUnsafe<{ moved: number; picked: boolean; known: boolean }[]>(
    GAME_VIEW_SQL,
    activityId,
    ctx.schoolId,
    view.board !== undefined,
    ctx.actorId,
    "guide.game",
    ...notifyParams(activityId),
    sessionId ?? null,
    view.board ?? null,
    view.names ?? null,
  );
  const result = gameViewResult(rows[0]);
  if (!result.ok) return result;
  logAudit({
    action: "guide.game",
    actorId: ctx.actorId,
    schoolId: ctx.schoolId,
    targetType: "activity",
    targetId: activityId,
  });
  return ok(null);
}

/** Ends the session addressed (another class's running at the same time goes on); published once committed. */
export async function endSession(ctx: SchoolCtx, activityId: string, sessionId?: string) {
  const endedAt = new Date();
  let ended: string | undefined;
  const result = await changeSession(ctx, { activityId, sessionId }, "guide.end", async (session) => {
    ended = session.id;
    return { endedAt };
  });
  if (result.ok && ended) publishEnded({ sessionId: ended, activityId, endedAt: endedAt.toISOString() });
  return result;
}

/** Presence writes, batched (features/play/shared/presence.ts); one writer per process. */
function presence() {
  const g = globalThis as unknown as { manabiyaPresence?: ReturnType<typeof presenceWriter> };
  return (g.manabiyaPresence ??= presenceWriter((sql, params) => db().$executeRawUnsafe(sql, ...params)));
}

/** Refreshes a student's presence in the running session (their stream or poll is open). */
export function touchPresence(sessionId: string, userId: string): Promise<void> {
  return presence().touch(sessionId, userId);
}

/** A student's stream closed: they no longer count as connected. */
export function leavePresence(sessionId: string, userId: string): Promise<void> {
  return presence().leave(sessionId, userId);
}
