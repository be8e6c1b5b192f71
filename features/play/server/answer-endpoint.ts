import { readSessionCookie } from "@/platform/auth/session-token";
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
import { createAnswerSaver } from "./answer-pool-commands";
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
  const saver = createAnswerSaver(options);
  const send = jsonSender(options.production);

  return {
    async handle(req, res) {
      try {
        const read = await readSessionCookie(cookiesOf(req.headers.cookie), options.authSecret);
        // a staff token names its device: signed in only while it is open and past its second factor (students' carry none)
        const session = read?.sid && !(await saver.deviceOpen(read.id, read.sid)) ? null : read;
        const host = req.headers.host ?? "localhost";
        const reply = await answerReply(
          {
            headers: headersOf(req),
            url: `http://${host}${req.url ?? ANSWER_PATH}`,
            userId: session?.id ?? null,
            body: () => readBody(req, MAX_ANSWER_BODY),
          },
          (userId, input) => observeAnswerSave(saver.save(userId, input, session?.sv ?? null)),
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
      await saver.close();
    },
  };
}
