import http from "node:http";
import type { AddressInfo } from "node:net";
import { env } from "@/platform/env";
import { createAdvanceEndpoint } from "@/features/play/server/advance-endpoint";
import { createAnswerEndpoint } from "@/features/play/server/answer-endpoint";
import { createStreamEndpoint } from "@/features/play/server/stream-endpoint";
import { uniqueTag } from "../../prisma/seed/factories";
import { serveEndpoint } from "./helpers";
import { sessionCookieOf } from "./next-headers-fake";

/**
 * The production server's three live endpoints (answers, 次へ, the students' streams), each with its pool on the
 * app's database (DATABASE_URL as the test set it), served on ports of their own: a lesson driven as the
 * devices drive it. `close()` ends the servers and the pools.
 */
export async function serveLiveEndpoints(pools: { answers: number; advance: number; streams: number }) {
  const common = { authSecret: process.env.AUTH_SECRET!, production: true };
  const answers = createAnswerEndpoint({ ...common, poolSize: pools.answers });
  const advance = createAdvanceEndpoint({ ...common, poolSize: pools.advance });
  const streams = createStreamEndpoint({
    ...common,
    poolSize: pools.streams,
    limits: { perUser: env().LIVE_STREAMS_PER_USER, max: env().LIVE_STREAMS_MAX },
  });
  const servedAnswers = await serveEndpoint(answers);
  const servedAdvance = await serveEndpoint(advance);
  const streamServer = http.createServer((req, res) => void streams.handle(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => streamServer.listen(0, "127.0.0.1", resolve));
  const ports = {
    answers: servedAnswers.port,
    advance: servedAdvance.port,
    streams: (streamServer.address() as AddressInfo).port,
  };
  return {
    ports,
    async close() {
      for (const server of [servedAnswers.server, servedAdvance.server, streamServer]) {
        server.closeAllConnections();
        server.close();
      }
      for (const endpoint of [answers, advance, streams]) await endpoint.close();
    },
    /** The teacher presses 次へ to `sceneId`: the reply's status. */
    async press(activityId: string, teacherId: string, sceneId: string) {
      const res = await fetch(`http://127.0.0.1:${ports.advance}/api/v1/live/${activityId}/scene`, {
        method: "POST",
        body: JSON.stringify({ sceneId }),
        headers: { "content-type": "application/json", cookie: await sessionCookieOf(teacherId, "teacher", 0) },
      });
      return res.status;
    },
    /** A student saves a choice of science-dissolve's single-choice scene (clear or cloudy by `revision`): the status. */
    async answer(activityId: string, studentId: string, sceneId: string, revision: number) {
      const res = await fetch(`http://127.0.0.1:${ports.answers}/api/v1/answers`, {
        method: "POST",
        body: JSON.stringify({
          activityId,
          sceneId,
          answer: { choice: revision % 2 ? "clear" : "cloudy" },
          clientRevision: revision,
          idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
          mode: "guide",
        }),
        headers: { "content-type": "application/json", cookie: await sessionCookieOf(studentId, "student", 0) },
      });
      return res.status;
    },
  };
}

export type LiveEndpoints = Awaited<ReturnType<typeof serveLiveEndpoints>>;
