import type { IncomingMessage } from "node:http";
import { isRole } from "@/platform/auth/roles";
import { readSessionCookie } from "@/platform/auth/session-token";
import { type ActionResult, fail, fieldErrorsOf } from "@/platform/errors";
import {
  cookiesOf,
  headersOf,
  jsonSender,
  readBody,
  type EndpointOptions,
  type NodeEndpoint,
} from "@/platform/http/node-http";
import { logAudit } from "@/platform/audit/log-line";
import { errorField, log } from "@/platform/ops/log";
import { sameOrigin } from "@/platform/security/headers";
import {
  ADVANCE_PATH,
  advanceInputOf,
  GAME_VIEW_PATH,
  gameViewResult,
  MAX_ADVANCE_BODY,
  moveResult,
  statusOf,
} from "../shared/advance";
import { gameViewInput, goToSceneInput } from "../shared/schema";
import { createAdvanceMoves } from "./advance-pool-commands";

/**
 * POST /api/v1/live/{activityId}/scene ("next") and POST /api/v1/live/{activityId}/game (a game's
 * ランキングを見せる, 表彰台, 名前を表示) served by the production server
 * (server/main.ts) before Next.js sees them: when fifty teachers press
 * "next" (or show the leaderboard) at once, Next's own handling of fifty server-action requests
 * (milliseconds each, one after another on one core) delayed every class's
 * new scene (docs/benchmarks.md). The answers are the server action's
 * (goToSceneAction and setGameViewAction through their route handlers, features/play/server/routes.ts), step by
 * step, and an integration test holds the two to the same replies:
 * the Origin check; the input parsed (VALIDATION with the same field
 * errors); the session cookie read as the app reads it, the user re-read
 * from the database as getActor does (gone, disabled, another session
 * version: UNAUTHENTICATED; a teacher or manager idle past
 * STAFF_IDLE_MINUTES: every session of theirs ended; the last use recorded);
 * the role (teacher, manager: else FORBIDDEN); the school scope as
 * authorizeSchool decides it; then the move or the game view — the user's checks and the
 * change in one statement, shared by the presses that arrive together
 * (features/play/shared/advance-batch.ts). Framework-free: no Next.js, no Prisma.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AdvanceEndpoint = NodeEndpoint;

export function createAdvanceEndpoint(options: EndpointOptions): AdvanceEndpoint {
  const send = jsonSender(options.production);
  const presses = createAdvanceMoves(options);

  /** The press a request's input asks for ("next" or a game view), or its input errors. */
  function pressOf(raw: Record<string, unknown>, game: boolean) {
    if (game) {
      const parsed = gameViewInput.safeParse(raw);
      if (!parsed.success) return { errors: parsed.error.issues };
      const { board, names, ...ref } = parsed.data;
      return { input: { ...ref, sceneId: null, game: { board, names } } };
    }
    const parsed = goToSceneInput.safeParse(raw);
    return parsed.success ? { input: { ...parsed.data, game: null } } : { errors: parsed.error.issues };
  }

  /** The reply of one request, in the server action's order of checks. */
  async function reply(req: IncomingMessage, activityId: string, game: boolean): Promise<ActionResult<null>> {
    const host = req.headers.host ?? "localhost";
    if (!sameOrigin(headersOf(req), `http://${host}${req.url ?? "/"}`)) return fail("FORBIDDEN");
    const raw = advanceInputOf(await readBody(req, MAX_ADVANCE_BODY), activityId);
    if (!raw) return fail("VALIDATION");
    const parsed = pressOf(raw, game);
    if (!parsed.input) return fail("VALIDATION", fieldErrorsOf(parsed.errors));
    const input = parsed.input;

    const session = await readSessionCookie(cookiesOf(req.headers.cookie), options.authSecret);
    if (!session || !isRole(session.role) || !UUID.test(session.id)) return fail("UNAUTHENTICATED");
    const row = await presses.decide({
      userId: session.id,
      sessionVersion: session.sv,
      deviceId: session.sid,
      activityId: input.activityId,
      schoolId: input.schoolId ?? null,
      sceneId: input.sceneId,
      game: input.game,
      sessionId: input.sessionId ?? null,
    });
    if (row.refusal === "UNAUTHENTICATED" || row.refusal === "IDLE") return fail("UNAUTHENTICATED");
    if (row.refusal === "FORBIDDEN" || !row.scoped) return fail("FORBIDDEN");
    if (!game) return moveResult(row);
    const result = gameViewResult(row);
    // the statement wrote the audit entry; its log line as setGameView writes it
    if (result.ok)
      logAudit({
        action: "guide.game",
        actorId: session.id,
        schoolId: row.schoolId,
        targetType: "activity",
        targetId: input.activityId,
      });
    return result;
  }

  return {
    async handle(req, res) {
      try {
        const game = GAME_VIEW_PATH.exec(req.url ?? "");
        const activityId = decodeURIComponent((game ?? ADVANCE_PATH.exec(req.url ?? ""))?.[1] ?? "");
        const result = await reply(req, activityId, game !== null);
        send(res, statusOf(result), result);
      } catch (error) {
        // the database is away, or worse: the teacher's screen says so and they press again
        log().error({ event: "advance.failed", ...errorField(error) }, "advance: failed");
        if (!res.headersSent) send(res, 503, fail("INTERNAL"));
        else res.destroy();
      }
    },
    async close() {
      await presses.close();
    },
  };
}
