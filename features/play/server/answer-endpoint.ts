import { readSessionCookie } from "@/platform/auth/session-token";
import { createPool } from "@/platform/db/pools";
import { countsNotifierVia } from "@/platform/notify/listen";
import {
  cookiesOf,
  headersOf,
  jsonSender,
  readBody,
  type EndpointOptions,
  type NodeEndpoint,
} from "@/platform/http/node-http";
import { observeAnswerSave } from "@/platform/ops/metrics";
import { answerReply, MAX_ANSWER_BODY } from "./answer-reply";
import { AnswerWriter, WRITER_PG_OPTIONS } from "./answer-writer";
import { errorField, log } from "@/platform/ops/log";

/**
 * POST /api/v1/answers served by the production server (server/main.ts)
 * before Next.js sees the request: a class saving at once is the app's
 * busiest moment, and Next's own request handling costs more CPU than the
 * save itself (docs/benchmarks.md). The reply is the route handler's
 * (features/play/server/answer-reply.ts); the session cookie is read as the app reads it
 * (platform/auth/session-token.ts) and the user re-checked in the database with
 * the save (features/play/server/answer-writer.ts); headers are the app's
 * (next.config.ts). Framework-free: no Next.js, no Prisma.
 */

export const ANSWER_PATH = "/api/v1/answers";

export type AnswerEndpoint = NodeEndpoint;

export function createAnswerEndpoint(options: EndpointOptions): AnswerEndpoint {
  // The save statement is prepared once per connection, with a generic plan of index probes
  // (WRITER_PG_OPTIONS). A batch that hangs (a database that stopped answering) fails after 10 s, and the
  // clients keep their answers and try again.
  const pool = createPool({
    name: "answers",
    url: options.databaseUrl,
    max: options.poolSize ?? 4,
    timeouts: { statementMs: 10_000 },
    settings: WRITER_PG_OPTIONS,
    watched: true,
    logIdleFailures: true,
  });
  const countsChanged = countsNotifierVia(pool);
  // named statements: each pooled connection prepares them once, and PostgreSQL plans them once
  const writer = new AnswerWriter(
    async (sql, params, name) => (await pool.query({ name, text: sql, values: params })).rows,
    { onGuideSave: countsChanged },
  );
  const send = jsonSender(options.production);

  return {
    async handle(req, res) {
      try {
        const session = await readSessionCookie(cookiesOf(req.headers.cookie), options.authSecret);
        const host = req.headers.host ?? "localhost";
        const reply = await answerReply(
          {
            headers: headersOf(req),
            url: `http://${host}${req.url ?? ANSWER_PATH}`,
            userId: session?.id ?? null,
            body: () => readBody(req, MAX_ANSWER_BODY),
          },
          (userId, input) => observeAnswerSave(writer.save(userId, input, session?.sv ?? null)),
        );
        send(res, reply.status, reply.body);
      } catch (error) {
        // the database is away, or worse: the client keeps the answer and tries again
        log().error({ event: "answers.save.failed", ...errorField(error) }, "answers: save failed");
        if (!res.headersSent) send(res, 503, { ok: false, code: "INTERNAL" });
        else res.destroy();
      }
    },
    async close() {
      await writer.drain(); // every answer already received is written (or refused) before the pool closes
      await pool.end();
    },
  };
}
