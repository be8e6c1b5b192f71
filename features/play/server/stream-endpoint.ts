import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { readSessionCookie } from "@/platform/auth/session-token";
import { sessionCheckKey } from "@/platform/auth/session-checks";
import { fail } from "@/platform/errors";
import { cookiesOf, jsonSender, type EndpointOptions } from "@/platform/http/node-http";
import { errorField, log } from "@/platform/ops/log";
import { STATIC_SECURITY_HEADERS } from "@/platform/security/headers";
import { type Subscribe, subscribeVia } from "../../../platform/notify/listen";
import { SLOT_RETRY_AFTER_S, takeSlot } from "./slot-count";
import { openLiveStream, SSE_HEADERS, type StreamSink } from "./stream-core";
import { classKeyOf } from "../shared/klass";
import { stateForStudent } from "./student-state";
import { createStreamDatabase } from "./stream-pool-queries";

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

const CRLF = Buffer.from("\r\n");
/** Each frame as one HTTP/1.1 chunk, made once however many streams send it (the frames: features/play/server/stream-core.ts). */
const chunks = new WeakMap<Uint8Array, Buffer>();
function chunkOf(bytes: Uint8Array): Buffer {
  let chunk = chunks.get(bytes);
  if (!chunk) {
    chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]);
    chunks.set(bytes, chunk);
  }
  return chunk;
}

/**
 * Where a stream's frames go. Through `res.write`, Node frames every write of a chunked response itself: three
 * buffers and a deferred uncork per write, per stream: for 10,000 streams about 1.5 times the CPU of writing each a
 * ready-made chunk (docs/benchmarks.md "The city row"). So once the headers are on the socket, a chunked response's
 * frames are written to its socket as ready-made chunks, in order with what the response writes there (its
 * last chunk at `end`). Anything else (an HTTP/1.0 client, a response still buffering) goes through `res.write`.
 */
function chunkSink(res: ServerResponse): StreamSink {
  res.flushHeaders();
  const socket = res.socket;
  if (!socket || !res.chunkedEncoding || res.writableLength > 0)
    return { write: (bytes) => void res.write(bytes), end: () => res.end() };
  return {
    write: (bytes) => {
      if (!socket.destroyed) socket.write(chunkOf(bytes));
    },
    end: () => res.end(),
  };
}

let endpoints = 0;

export interface StreamEndpoint {
  /** Serves the request, or calls `next` to leave it to Next.js (not a student's stream). */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void>;
  close(): Promise<void>;
}

// eslint-disable-next-line max-lines-per-function -- serve() closes over the endpoint's database (its pool and loaders) and headers, made once per endpoint
export function createStreamEndpoint(
  options: EndpointOptions & { limits: { perUser: number; max: number } },
): StreamEndpoint {
  const database = createStreamDatabase(options);
  const send = jsonSender(options.production);
  const streamHeaders: Record<string, string> = {
    ...Object.fromEntries(STATIC_SECURITY_HEADERS.map((h) => [h.key, h.value])),
    ...SSE_HEADERS,
  };
  if (options.production) streamHeaders["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";

  const subscribe: Subscribe = (topic, onMessage) => subscribeVia(options.databaseUrl, topic, onMessage);
  /** this endpoint's student streams of an activity share one read per change (features/play/server/stream-core.ts) */
  const fanOutKey = `students:${++endpoints}`;

  /** presence in a session that started while the stream was open, and the teacher's counts told */
  async function joinSession(activityId: string, sessionId: string, userId: string) {
    try {
      await database.presence.touch(sessionId, userId);
      database.countsChanged(activityId);
    } catch (error) {
      log().error({ event: "live.presence.failed", ...errorField(error) }, "live: presence failed");
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse, next: () => void) {
    const session = await readSessionCookie(cookiesOf(req.headers.cookie), options.authSecret);
    if (!session || session.role !== "student" || !UUID.test(session.id)) return next();
    const raw = decodeURIComponent(EVENTS_PATH.exec(req.url ?? "")?.[1] ?? "");
    const activityId = z.uuid().safeParse(raw).success ? raw : null;
    const user = await database.readStudent(session.id, activityId);
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
        await database.presence.touch(sessionId, session.id);
        database.countsChanged(topicId);
      }
    } catch (error) {
      release();
      throw error;
    }
    if (opened.gone) {
      release();
      if (sessionId) await database.presence.leave(sessionId, session.id);
      return;
    }
    res.writeHead(200, streamHeaders);
    const live = (opened.live = openLiveStream(chunkSink(res), {
      subscribe,
      topic: `activity:${topicId}`,
      kinds: ["state"],
      release,
      stillValid: () => database.checks.load(sessionCheckKey(session)),
      // the class's streams read the activity's states once per change and each takes its class's (and, while a
      // game's board is shown, its own standing)
      shared: {
        key: fanOutKey,
        read: () => database.stateOf(topicId),
        view: (read: Awaited<ReturnType<typeof database.stateOf>>) => {
          const state = stateForStudent(read, studentClass, session.id);
          // a session started while the stream was open: join it
          if (state?.sessionId && state.status === "running" && state.sessionId !== sessionId) {
            sessionId = state.sessionId;
            void joinSession(topicId, state.sessionId, session.id);
          }
          return state;
        },
      },
      onTick: async () => {
        if (sessionId) await database.presence.touch(sessionId, session.id);
      },
      onClose: async () => {
        if (!sessionId) return;
        await database.presence.leave(sessionId, session.id);
        database.countsChanged(topicId);
      },
    }));
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
      await database.close();
    },
  };
}
