import "server-only";
import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { ROLES } from "@/platform/auth/roles";
import { type Actor, sessionStillCurrent } from "@/platform/auth/session";
import { type ActionResult, fail } from "@/platform/errors";
import { problem, readBodyLimited } from "@/platform/http";
import { defineRoute } from "@/platform/http/route";
import { sameOrigin } from "@/platform/security/headers";
import { liveAccess, studentClassKey } from "./access";
import { listActivityModes } from "./access-queries";
import { goToSceneAction, setGameViewAction } from "./actions";
import { advanceInputOf, MAX_ADVANCE_BODY, statusOf } from "../shared/advance";
import { countsChanged } from "../../../platform/notify/bus";
import { leavePresence, touchPresence } from "./session-commands";
import { sseResponse } from "./sse";
import { takeStreamSlot } from "./stream-slots";
import { liveStateForStaff, liveStateForStudent } from "./state-queries";

type Granted = NonNullable<Awaited<ReturnType<typeof liveAccess>>>;

/**
 * A route handler of one activity's live state: anyone signed in (defineRoute) whom liveAccess lets
 * follow it (else 404, as for no activity), then `run` with the access granted.
 */
function defineLiveRoute(
  run: (req: NextRequest, actor: Actor, granted: Granted, activityId: string) => Promise<Response>,
) {
  return defineRoute({
    roles: ROLES,
    async run(req, actor, activityId: string) {
      const granted = await liveAccess(actor, activityId, req.nextUrl.searchParams.get("school"));
      return granted ? run(req, actor, granted, activityId) : problem(404, "NOT_FOUND");
    },
  });
}

/**
 * A student following the session counts as connected (presence), and the teacher's counts follow: in the
 * running session of their own class (or the whole school's), never another class's.
 */
async function present(activityId: string, userId: string, studentClass: string | null) {
  const state = await liveStateForStudent(activityId, studentClass);
  if (state?.status !== "running" || !state.sessionId) return null;
  await touchPresence(state.sessionId, userId);
  return state.sessionId;
}

/** The session a teacher's screen follows (`?session=`; features/play/server/state-queries.ts liveStateForStaff): null when none or not an id. */
function chosenSession(req: NextRequest): string | null {
  const raw = req.nextUrl.searchParams.get("session");
  return raw && z.uuid().safeParse(raw).success ? raw : null;
}

/** GET /api/v1/live/{activityId}/events: the live state as server-sent events (students: state; staff: counts and results too). */
export const liveEvents = defineLiveRoute(async (req, actor, granted, activityId) => {
  const slot = takeStreamSlot(actor.id);
  if (!slot.ok) return slot.refusal;
  const { release } = slot;
  if (granted.kind === "staff") {
    const schoolId = granted.schoolId;
    const sessionId = chosenSession(req);
    return sseResponse(req.signal, {
      topic: `activity:${activityId}`,
      kinds: ["state", "counts"],
      snapshot: () => liveStateForStaff(activityId, schoolId, sessionId),
      refreshOnTick: true,
      release,
      stillValid: await sessionStillCurrent(),
    });
  }
  const studentClass = await studentClassKey(actor.id).catch((error: unknown) => {
    release();
    throw error;
  });
  let sessionId = await present(activityId, actor.id, studentClass).catch((error: unknown) => {
    release();
    throw error;
  });
  if (sessionId) countsChanged(activityId);
  const stillValid = await sessionStillCurrent();
  return sseResponse(req.signal, {
    topic: `activity:${activityId}`,
    kinds: ["state"],
    release,
    stillValid,
    snapshot: async () => {
      const state = await liveStateForStudent(activityId, studentClass, actor.id);
      // a session started while the stream was open: join it
      if (state?.sessionId && state.status === "running" && state.sessionId !== sessionId) {
        sessionId = state.sessionId;
        await touchPresence(sessionId, actor.id);
        countsChanged(activityId);
      }
      return state;
    },
    onTick: async () => {
      if (sessionId) await touchPresence(sessionId, actor.id);
    },
    onClose: async () => {
      if (!sessionId) return;
      await leavePresence(sessionId, actor.id);
      countsChanged(activityId);
    },
  });
});

/** GET /api/v1/live/{activityId}/state: the same state as JSON, for clients whose network cannot hold a stream (polling). */
export const liveState = defineLiveRoute(async (req, actor, granted, activityId) => {
  if (granted.kind === "staff")
    return NextResponse.json(await liveStateForStaff(activityId, granted.schoolId, chosenSession(req)), {
      headers: { "Cache-Control": "no-store" },
    });
  const studentClass = await studentClassKey(actor.id);
  const sessionId = await present(activityId, actor.id, studentClass);
  if (sessionId) countsChanged(activityId);
  const state = await liveStateForStudent(activityId, studentClass, actor.id);
  return NextResponse.json(state, { headers: { "Cache-Control": "no-store" } });
});

/** GET /api/v1/live/school/events: a student's home follows mode changes of their school's activities. */
export const schoolEvents = defineRoute({
  roles: ["student", "teacher"],
  async run(req, actor) {
    if (!actor.schoolId) return problem(403, "FORBIDDEN");
    const schoolId = actor.schoolId;
    const slot = takeStreamSlot(actor.id);
    if (!slot.ok) return slot.refusal;
    const stillValid = await sessionStillCurrent().catch((error: unknown) => {
      slot.release();
      throw error;
    });
    return sseResponse(req.signal, {
      topic: `school:${schoolId}`,
      kinds: ["modes"],
      release: slot.release,
      stillValid,
      snapshot: async () => {
        // mode, state and whether a live session runs (the student home's 参加する follows it)
        const rows = await listActivityModes(schoolId, actor.role === "teacher" ? "teacher" : "student");
        // pacing (self mode's open scenes) too: the solo page re-renders with the scenes opened
        return rows
          .map(
            (r) =>
              `${r.id}:${r.mode}:${r.status}:${r.version}:${r.selfOpenScenes ?? ""}:${r.guideSessions.map((g) => g.id).join(",")}`,
          )
          .sort();
      },
    });
  },
});

/** A guide control posted as JSON (the production server's endpoint, features/play/server/advance-endpoint.ts): the action's answer with its status. */
async function controlRoute(
  req: NextRequest,
  activityId: string,
  action: (input: unknown) => Promise<ActionResult<null>>,
): Promise<Response> {
  let result;
  if (!sameOrigin(req.headers, req.url)) result = fail("FORBIDDEN");
  else {
    const raw = advanceInputOf(await readBodyLimited(req, MAX_ADVANCE_BODY), activityId);
    result = raw ? await action(raw) : fail("VALIDATION");
  }
  return NextResponse.json(result, { status: statusOf(result), headers: { "Cache-Control": "no-store" } });
}

/**
 * POST /api/v1/live/{activityId}/scene with `{ sceneId, schoolId? }`: "next", as the guide screen
 * sends it — the server action goToSceneAction's answer as JSON, with its status. The production
 * server answers this path before Next.js (features/play/server/advance-endpoint.ts) with the same replies.
 */
export function advanceRoute(req: NextRequest, activityId: string): Promise<Response> {
  return controlRoute(req, activityId, goToSceneAction);
}

/**
 * POST /api/v1/live/{activityId}/game with `{ board?, names?, schoolId?, sessionId? }`: a game's leaderboard,
 * podium or names on the projector, as the guide screen sends it — setGameViewAction's answer as JSON. The
 * production server answers this path before Next.js (features/play/server/advance-endpoint.ts) with the same replies.
 */
export function gameViewRoute(req: NextRequest, activityId: string): Promise<Response> {
  return controlRoute(req, activityId, setGameViewAction);
}
