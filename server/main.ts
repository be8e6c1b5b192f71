/**
 * The production web server (what `npm start` runs after the build): Next.js
 * in a plain node:http server, with two routes served before Next sees them —
 * POST /api/v1/answers, the busiest request of a class (features/play/server/answer-endpoint.ts),
 * POST /api/v1/live/{activityId}/scene, the teacher's "next" that every
 * class waits on, and …/game, a game's leaderboard shown between questions
 * (features/play/server/advance-endpoint.ts), and a student's
 * GET /api/v1/live/{activityId}/events, the stream that shows it
 * (features/play/server/stream-endpoint.ts; staff streams stay Next's); why: docs/benchmarks.md.
 * Everything else, these routes' Next.js handlers included (used by
 * `next dev`), is Next's as with `next start`, compressed by this server
 * (brotli where accepted; the build's static files compressed once at build).
 *
 *   PORT=3000 node --import tsx server/main.ts   (DATABASE_URL, AUTH_SECRET, … as for the app)
 */
import http from "node:http";
import path from "node:path";

(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const ROOT = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.PORT ?? 3000);

const { EnvError, parseEnv } = await import("@/platform/env");
const { ANSWER_PATH, createAnswerEndpoint } = await import("@/features/play/server/answer-endpoint");
const { createAdvanceEndpoint } = await import("@/features/play/server/advance-endpoint");
const { ADVANCE_PATH, GAME_VIEW_PATH } = await import("@/features/play/shared/advance");
const { createStreamEndpoint, EVENTS_PATH } = await import("@/features/play/server/stream-endpoint");
const { default: next } = await import("next");
const { claimClientIpHeader, clientAddress } = await import("@/platform/security/client-ip");
const { applyServerLimits, SERVER_OPTIONS } = await import("./limits");
const { runShutdownHooks } = await import("@/platform/shutdown");
const { httpInstrument } = await import("@/platform/ops/http-metrics");
const { createLogger, errorField, log, routeConsoleToLog } = await import("@/platform/ops/log");
const { withRequestLog } = await import("./request-log");
const { createStaticBrotli } = await import("./static-brotli");
const { pageCompression } = await import("./page-compression");

const env = (() => {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // e.g. AUTH_URL missing (or LOG_LEVEL itself bad, hence a logger of its own): refuse to serve
    createLogger("error").error({ event: "start.refused", problems: error.problems }, error.message);
    process.exit(1);
  }
})();
routeConsoleToLog(); // Next's own messages as JSON lines too
const app = next({ dev: false, dir: ROOT, port, hostname: "localhost" });
const handle = app.getRequestHandler();
await app.prepare();
const answers = createAnswerEndpoint({
  authSecret: env.AUTH_SECRET,
  production: env.NODE_ENV === "production",
});
const advance = createAdvanceEndpoint({
  authSecret: env.AUTH_SECRET,
  production: env.NODE_ENV === "production",
  // fifty teachers pressing at once: their statements wait on commits, not on the CPU, so they go side by side
  poolSize: 8,
});
const studentStreams = createStreamEndpoint({
  authSecret: env.AUTH_SECRET,
  production: env.NODE_ENV === "production",
  limits: { perUser: env.LIVE_STREAMS_PER_USER, max: env.LIVE_STREAMS_MAX },
});

// /_next/static/* brotli-compressed once at build (server/static-brotli.ts); everything else
// Next.js answers is compressed here as it streams (next.config.ts `compress: false`): brotli
// at a fast quality and a small window where the browser accepts it (every Chromium does), gzip
// else (server/page-compression.ts). Event streams say `no-transform` (features/play/server/sse.ts)
// and pass uncompressed, each event as written.
const staticBrotli = createStaticBrotli(ROOT, env.NODE_ENV === "production");
const compress = pageCompression();

const isAnswer = (req: http.IncomingMessage) =>
  req.method === "POST" && (req.url === ANSWER_PATH || req.url?.startsWith(`${ANSWER_PATH}?`));
/**
 * A path whose percent-encoding is not UTF-8 (%ED%A0%80, %C0%80, %FF) names
 * no page or id; Next would answer it with a bare 500, so it gets the app's
 * own 404 page instead (as an unknown path does).
 */
const malformedPath = (url = "/") => {
  try {
    decodeURIComponent(url.split("?")[0]!);
    return false;
  } catch {
    return true;
  }
};
const clientIpHeader = claimClientIpHeader();
// every request in the metrics by route pattern and status (GET /metrics: app/metrics/route.ts)
const instrument = httpInstrument(ROOT);
const server = http.createServer(
  SERVER_OPTIONS,
  withRequestLog((req, res) => {
    instrument(req, res);
    // the client address for throttling, from the socket or the trusted proxies only (platform/security/client-ip.ts)
    req.headers[clientIpHeader] = clientAddress(
      req.socket.remoteAddress,
      req.headers["x-forwarded-for"],
      env.TRUSTED_PROXY_HOPS,
    );
    if (isAnswer(req)) void answers.handle(req, res);
    else if (req.method === "POST" && (ADVANCE_PATH.test(req.url ?? "") || GAME_VIEW_PATH.test(req.url ?? "")))
      void advance.handle(req, res);
    else if (req.method === "GET" && EVENTS_PATH.test(req.url ?? "") && !malformedPath(req.url))
      void studentStreams.handle(req, res, () => void handle(req, res));
    else {
      if (malformedPath(req.url)) req.url = "/_malformed-path";
      else if (staticBrotli(req, res)) return;
      compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => undefined);
      void handle(req, res);
    }
  }),
);
applyServerLimits(server, env);
server.listen(port, () => log().info({ event: "ready", port }, `ready on port ${port}`));

/**
 * SIGTERM (a deploy, a scale-down): stop accepting connections, end the open
 * event streams so their browsers reconnect elsewhere, let the requests in
 * progress finish, write every answer already received, close the database
 * pools, and exit — within SHUTDOWN_MS whatever happens (docs/architecture.md "Operations").
 */
const SHUTDOWN_MS = 10_000;
let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  setTimeout(() => {
    log().error(
      { event: "shutdown.timeout", ms: SHUTDOWN_MS },
      `shutdown: not finished after ${SHUTDOWN_MS} ms, exiting anyway`,
    );
    process.exit(1);
  }, SHUTDOWN_MS - 500).unref();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const streams = runShutdownHooks();
  // connections finish their request in progress, then close; keep-alive ones left idle are closed at once
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  server.closeIdleConnections();
  await Promise.race([closed, new Promise((r) => setTimeout(r, SHUTDOWN_MS - 3_000))]);
  clearInterval(idle);
  server.closeAllConnections();
  await answers
    .close()
    .catch((error: unknown) =>
      log().error({ event: "shutdown.answers.failed", ...errorField(error) }, "shutdown: answers"),
    );
  await advance
    .close()
    .catch((error: unknown) =>
      log().error({ event: "shutdown.advance.failed", ...errorField(error) }, "shutdown: advance"),
    );
  await studentStreams
    .close()
    .catch((error: unknown) =>
      log().error({ event: "shutdown.streams.failed", ...errorField(error) }, "shutdown: streams"),
    );
  await app.close().catch(() => undefined);
  await (globalThis as { prisma?: { $disconnect(): Promise<void> } }).prisma?.$disconnect().catch(() => undefined);
  log().info(
    { event: "shutdown", signal, streams, ms: Date.now() - started },
    "shutdown: event streams ended, answers written",
  );
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
