import type { IncomingMessage, ServerResponse } from "node:http";
import type { QueryResultRow } from "pg";
import { z } from "zod";
import { sessionCheckLoader } from "@/platform/auth/session-checks";
import { readSessionCookie } from "@/platform/auth/session-token";
import { createPool } from "@/platform/db/pools";
import { fail } from "@/platform/errors";
import { cookiesOf, jsonSender, type EndpointOptions } from "@/platform/http/node-http";
import { errorField, log } from "@/platform/ops/log";
import { STATIC_SECURITY_HEADERS } from "@/platform/security/headers";
import { countsNotifierVia, type Subscribe, subscribeVia } from "../../../platform/notify/listen";
import { presenceWriter } from "../shared/presence";
import { SLOT_RETRY_AFTER_S, takeSlot } from "./slot-count";
import { openLiveStream, SSE_HEADERS } from "./stream-core";
import { classKeyOf, SESSION_OPEN_SQL } from "../shared/klass";
import {
  SESSIONS_SQL,
  type SessionRow,
  sessionRowLoader,
  sharedStudentReads,
  stateForClass,
  statesOfRows,
} from "./student-state";

/**
 * GET /api/v1/live/{activityId}/events of a STUDENT, served by the production
 * server (server/main.ts) before Next.js sees it: when fifty classes move on
 * at once, 2,000 streams written through Next's response pipeline (a web
 * ReadableStream piped to the socket, with its promises and async context per
 * write) cost more than the writes themselves (docs/benchmarks.md). The stream
 * is the route handler's (liveEvents, features/play/server/routes.ts), step by step, and an
 * integration test holds the two alike: the session cookie read as the app
 * reads it and the user re-read (gone, disabled, another session version:
 * 401); the activity their school's, active, for students (else 404); a place
 * among the capped streams (features/play/server/slot-count.ts: 429/503 with Retry-After);
 * presence in the running session and the teacher's counts told; then the same
 * stream (features/play/server/stream-core.ts: the snapshot, every state change, the
 * heartbeats with their session check, the reconnect at shutdown). Staff and
 * anyone without a student's session cookie are Next's (`next()`): the
 * teacher's stream carries counts and results. Framework-free: no Next.js, no Prisma.
 */
/** An activity's stream; /api/v1/live/school/events (a student's home) is another route, Next's. */
export const EVENTS_PATH = /^\/api\/v1\/live\/(?!school\/)([^/?#]*)\/events(?:\?.*)?$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The student re-read as getActor does, the activity as liveAccess checks it, their class, and the running session if it is open to them: one query. */
const STUDENT_SQL = `
  select u.role::text as role, u.disabled, u.session_version, d.grade, d.class_name,
         (select a.id::text from activities a where a.id = $2::uuid and a.school_id = u.school_id and a.status = 'active' and a.actor_type = 'student') as activity_id,
         (select gs.id::text from guide_sessions gs where gs.activity_id = $2::uuid and gs.ended_at is null and ${SESSION_OPEN_SQL("gs", "d")} limit 1) as session_id
  from users u left join student_details d on d.user_id = u.id where u.id = $1::uuid`;

interface StudentRow {
  role: string;
  disabled: boolean;
  session_version: number;
  activity_id: string | null;
  session_id: string | null;
  grade: number | null;
  class_name: string | null;
}

export interface StreamEndpoint {
  /** Serves the request, or calls `next` to leave it to Next.js (not a student's stream). */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void>;
  close(): Promise<void>;
}

// eslint-disable-next-line max-lines-per-function -- serve() closes over the endpoint's pool, loaders and headers, made once per endpoint
export function createStreamEndpoint(
  options: EndpointOptions & { limits: { perUser: number; max: number } },
): StreamEndpoint {
  const pool = createPool({
    name: "streams",
    url: options.databaseUrl,
    max: options.poolSize ?? 4,
    timeouts: { statementMs: 10_000 },
    logIdleFailures: true,
  });
  const rows = async <T>(sql: string, params: unknown[]) =>
    (await pool.query<T & QueryResultRow>(sql, params)).rows as T[];
  const send = jsonSender(options.production);
  const streamHeaders: Record<string, string> = {
    ...Object.fromEntries(STATIC_SECURITY_HEADERS.map((h) => [h.key, h.value])),
    ...SSE_HEADERS,
  };
  if (options.production) streamHeaders["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";

  const sessions = sessionRowLoader((ids) => rows<SessionRow>(SESSIONS_SQL, [ids]));
  const stateOf = sharedStudentReads(async (activityId) => statesOfRows(await sessions.load(activityId)));
  const presence = presenceWriter((sql, params) => pool.query(sql, params));
  const checks = sessionCheckLoader((sql, ids) => rows(sql, [ids]));
  const subscribe: Subscribe = (topic, onMessage) => subscribeVia(options.databaseUrl, topic, onMessage);
  const countsChanged = countsNotifierVia(pool);

  async function serve(req: IncomingMessage, res: ServerResponse, next: () => void) {
    const session = await readSessionCookie(cookiesOf(req.headers.cookie), options.authSecret);
    if (!session || session.role !== "student" || !UUID.test(session.id)) return next();
    const raw = decodeURIComponent(EVENTS_PATH.exec(req.url ?? "")?.[1] ?? "");
    const activityId = z.uuid().safeParse(raw).success ? raw : null;
    const [user] = await rows<StudentRow>(STUDENT_SQL, [session.id, activityId]);
    if (!user || user.disabled || user.session_version !== session.sv) return send(res, 401, fail("UNAUTHENTICATED"));
    if (user.role !== "student") return next();
    if (!user.activity_id) return send(res, 404, fail("NOT_FOUND"));
    const slot = takeSlot(session.id, options.limits);
    if (!slot.ok) {
      res.setHeader("Retry-After", String(SLOT_RETRY_AFTER_S));
      return send(res, slot.status, fail("RATE_LIMITED"));
    }
    const { release } = slot;
    const topicId = user.activity_id;
    const studentClass = classKeyOf(user.grade, user.class_name);
    let sessionId = user.session_id;
    // the client may go while presence is written: then there is no stream to open
    const opened: { live?: ReturnType<typeof openLiveStream>; gone?: boolean } = {};
    res.once("close", () => {
      opened.gone = true;
      opened.live?.close();
    });
    try {
      if (sessionId) {
        await presence.touch(sessionId, session.id);
        countsChanged(topicId);
      }
    } catch (error) {
      release();
      throw error;
    }
    if (opened.gone) {
      release();
      if (sessionId) await presence.leave(sessionId, session.id);
      return;
    }
    res.writeHead(200, streamHeaders);
    const live = (opened.live = openLiveStream(
      { write: (bytes) => void res.write(bytes), end: () => res.end() },
      {
        subscribe,
        topic: `activity:${topicId}`,
        kinds: ["state"],
        release,
        stillValid: () => checks.load(`${session.id}:${session.sv}`),
        snapshot: async () => {
          const state = stateForClass(await stateOf(topicId), studentClass);
          // a session started while the stream was open: join it
          if (state?.sessionId && state.status === "running" && state.sessionId !== sessionId) {
            sessionId = state.sessionId;
            await presence.touch(sessionId, session.id);
            countsChanged(topicId);
          }
          return state;
        },
        onTick: async () => {
          if (sessionId) await presence.touch(sessionId, session.id);
        },
        onClose: async () => {
          if (!sessionId) return;
          await presence.leave(sessionId, session.id);
          countsChanged(topicId);
        },
      },
    ));
    await live.started;
  }

  return {
    async handle(req, res, next) {
      try {
        await serve(req, res, next);
      } catch (error) {
        log().error({ event: "streams.failed", ...errorField(error) }, "streams: failed");
        if (!res.headersSent) send(res, 503, fail("INTERNAL"));
        else res.destroy();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
