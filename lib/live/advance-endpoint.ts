import type { IncomingMessage, ServerResponse } from "node:http";
import pg from "pg";
import { isRole, STAFF_IDLE_MINUTES } from "@/lib/auth/roles";
import { readSessionCookie } from "@/lib/auth/session-token";
import { poolTimeoutOptions } from "@/lib/db-timeouts";
import { type ActionResult, fail, fieldErrorsOf } from "@/lib/errors";
import { cookiesOf, headersOf, jsonSender, readBody } from "@/lib/node-http";
import { sameOrigin } from "@/lib/security/headers";
import { ADVANCE_PATH, advanceInputOf, MAX_ADVANCE_BODY, MOVE_SQL, type MoveRow, moveParams, moveResult, statusOf } from "./advance";
import { goToSceneInput } from "./schema";

/**
 * POST /api/v1/live/{activityId}/scene served by the production server
 * (scripts/server.ts) before Next.js sees it: when fifty teachers press
 * "next" at once, Next's own handling of fifty server-action requests
 * (milliseconds each, one after another on one core) delayed every class's
 * new scene (docs/benchmarks.md). The answers are the server action's
 * (goToSceneAction through its route handler, lib/live/routes.ts), step by
 * step, and an integration test holds the two to the same replies:
 * the Origin check; the input parsed (VALIDATION with the same field
 * errors); the session cookie read as the app reads it, the user re-read
 * from the database as getActor does (gone, disabled, another session
 * version: UNAUTHENTICATED; a teacher or manager idle past
 * STAFF_IDLE_MINUTES: every session of theirs ended; the last use recorded);
 * the role (teacher, manager: else FORBIDDEN); the school scope as
 * authorizeSchool decides it; then the one move statement (lib/live/advance.ts).
 * Framework-free: no Next.js, no Prisma.
 */

interface StaffRow {
  role: string;
  disabled: boolean;
  school_id: string | null;
  academy_id: string | null;
  session_version: number;
  idle: boolean;
  touch: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACTOR_SQL = `
  select u.role::text, u.disabled, u.school_id::text, u.academy_id::text, u.session_version,
         coalesce(u.role <> 'student' and u.last_active_at < now() - make_interval(mins => ${STAFF_IDLE_MINUTES}), false) as idle,
         coalesce(u.last_active_at < now() - interval '1 minute', true) as touch
  from users u where u.id = $1::uuid`;

export interface AdvanceEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export function createAdvanceEndpoint(options: { databaseUrl: string; authSecret: string; production: boolean; poolSize?: number; connectTimeoutMs?: number }): AdvanceEndpoint {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 4, ...poolTimeoutOptions({ connectMs: options.connectTimeoutMs ?? 5_000, statementMs: 10_000 }) });
  pool.on("error", (error) => console.error("advance: idle database connection failed", error.message));
  const send = jsonSender(options.production);
  const query = async <R>(name: string, text: string, values: unknown[]) => (await pool.query<R & pg.QueryResultRow>({ name, text, values })).rows;

  /** The reply of one request, in the server action's order of checks. */
  async function reply(req: IncomingMessage, activityId: string): Promise<ActionResult<null>> {
    const host = req.headers.host ?? "localhost";
    if (!sameOrigin(headersOf(req), `http://${host}${req.url ?? "/"}`)) return fail("FORBIDDEN");
    const raw = advanceInputOf(await readBody(req, MAX_ADVANCE_BODY), activityId);
    if (!raw) return fail("VALIDATION");
    const parsed = goToSceneInput.safeParse(raw);
    if (!parsed.success) return fail("VALIDATION", fieldErrorsOf(parsed.error.issues));
    const input = parsed.data;

    const session = await readSessionCookie(cookiesOf(req.headers.cookie), options.authSecret);
    if (!session || !isRole(session.role) || !UUID.test(session.id)) return fail("UNAUTHENTICATED");
    const [user] = await query<StaffRow>("advance-actor", ACTOR_SQL, [session.id]);
    if (!user || user.disabled || user.session_version !== session.sv) return fail("UNAUTHENTICATED");
    if (user.role !== "student") {
      if (user.idle) {
        await pool.query("update users set session_version = session_version + 1 where id = $1::uuid", [session.id]);
        return fail("UNAUTHENTICATED");
      }
      if (user.touch) await pool.query("update users set last_active_at = now() where id = $1::uuid", [session.id]);
    }
    if (user.role !== "teacher" && user.role !== "manager") return fail("FORBIDDEN");

    try {
      let schoolId: string | null = null;
      if (user.role === "teacher") schoolId = user.school_id && (!input.schoolId || input.schoolId === user.school_id) ? user.school_id : null;
      else if (user.academy_id && input.schoolId) {
        const [school] = await query<{ id: string }>("advance-school", "select id::text from schools where id = $1::uuid and academy_id = $2::uuid", [input.schoolId, user.academy_id]);
        schoolId = school?.id ?? null;
      }
      if (!schoolId) return fail("FORBIDDEN");
      const [row] = await query<MoveRow>("advance-move", MOVE_SQL, moveParams(schoolId, session.id, input.activityId, input.sceneId));
      return moveResult(row);
    } catch (error) {
      console.error("action guide.scene failed", error);
      return fail("INTERNAL");
    }
  }

  return {
    async handle(req, res) {
      try {
        const activityId = decodeURIComponent(ADVANCE_PATH.exec(req.url ?? "")?.[1] ?? "");
        const result = await reply(req, activityId);
        send(res, statusOf(result), result);
      } catch (error) {
        // the database is away, or worse: the teacher's screen says so and they press again
        console.error("advance: failed", error instanceof Error ? error.message : error);
        if (!res.headersSent) send(res, 503, fail("INTERNAL"));
        else res.destroy();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
