import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus metrics (GET /metrics, app/metrics/route.ts; the list is in
 * README.md "Metrics"). ONE set per process, kept on globalThis: the production server
 * (server/main.ts) and every route bundle of Next.js load their own copy of this module,
 * and all of them must count into the same registry. Framework-free (the server script and
 * the answer endpoint load it without Next.js).
 *
 * Every label takes values from a closed set (a route pattern, a method, a status, a
 * sign-in error code, an outcome): no request can add a series. The hot path (an answer
 * save, ~1,000 a second at the bell) uses children bound once, here.
 */

/** What the pool gauges read of a node-postgres pool. */
export interface PoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

type SigninMethod = "password" | "code" | "google" | "entra" | "oidc" | "lti";

// eslint-disable-next-line max-lines-per-function -- one flat list of declarations, in the order /metrics prints them
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const pools = new Map<string, PoolLike>();
  const poolGauge = (name: string, help: string, read: (pool: PoolLike) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["pool"],
      registers,
      collect() {
        for (const [pool, p] of pools) this.set({ pool }, read(p));
      },
    });
  poolGauge(
    "manabiya_db_pool_connections",
    "Connections open in a database pool (answers: the answer endpoint's; advance: the teacher's next-scene endpoint's; prisma: the app's)",
    (p) => p.totalCount,
  );
  poolGauge("manabiya_db_pool_idle_connections", "Connections of a database pool open and idle", (p) => p.idleCount);
  poolGauge(
    "manabiya_db_pool_waiting_requests",
    "Queries waiting for a connection of a database pool",
    (p) => p.waitingCount,
  );

  const unsaved = new Counter({
    name: "manabiya_answer_save_errors_total",
    help: "Answer saves not stored: refused (a 4xx the client shows), failed (the database away: the client keeps the answer and retries)",
    labelNames: ["kind"],
    registers,
  });
  const pdfJobs = new Counter({
    name: "manabiya_pdf_jobs_total",
    help: "PDF jobs (sign-in sheets) by outcome: ok, failed, busy (refused with 503, too many waiting)",
    labelNames: ["kind", "outcome"],
    registers,
  });
  return {
    registry,
    pools,
    http: {
      requests: new Counter({
        name: "http_requests_total",
        help: "HTTP requests by route pattern (unknown paths: other), method and status",
        labelNames: ["route", "method", "status"],
        registers,
      }),
      duration: new Histogram({
        name: "http_request_duration_seconds",
        help: "HTTP request duration by route pattern and method, until the response ends (an event stream: until it closes)",
        labelNames: ["route", "method"],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers,
      }),
    },
    answers: {
      duration: new Histogram({
        name: "manabiya_answer_save_duration_seconds",
        help: "Answer save latency: from the save's arrival at the batching writer to its outcome (database round trip included)",
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers,
      }),
      saved: new Counter({
        name: "manabiya_answers_saved_total",
        help: "Answers acknowledged as stored (rate() of it: answers per second)",
        registers,
      }),
      refused: unsaved.labels("refused"),
      failed: unsaved.labels("failed"),
    },
    streams: new Gauge({
      name: "manabiya_sse_streams_open",
      help: "Live event streams (server-sent events) open in this process",
      registers,
    }),
    signinFailures: new Counter({
      name: "manabiya_signin_failures_total",
      help: "Failed sign-ins by method (password, code, google, entra) and reason (a sign-in error code)",
      labelNames: ["method", "reason"],
      registers,
    }),
    pdf: {
      ok: pdfJobs.labels("signin_sheets", "ok"),
      failed: pdfJobs.labels("signin_sheets", "failed"),
      busy: pdfJobs.labels("signin_sheets", "busy"),
      duration: new Histogram({
        name: "manabiya_pdf_job_duration_seconds",
        help: "PDF rendering time (sign-in sheets), from its turn in the worker to the finished file",
        labelNames: ["kind"],
        buckets: [0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
        registers,
      }).labels("signin_sheets"),
    },
    mailFailures: new Counter({
      name: "manabiya_mail_send_failures_total",
      help: "Mails that could not be sent (no SMTP_URL in production, or the SMTP server refused)",
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
const shared = globalThis as unknown as { manabiyaMetrics?: Metrics };

export function metrics(): Metrics {
  shared.manabiyaMetrics ??= createMetrics();
  return shared.manabiyaMetrics;
}

/** Reports a database pool's connections under `name`, the pool's name in platform/db (one pool per name: a later one replaces it). */
export function watchPool(name: string, pool: PoolLike): void {
  metrics().pools.set(name, pool);
}

/** Times one answer save and counts its outcome; returns the same promise. */
export function observeAnswerSave<T extends { ok: boolean }>(saving: Promise<T>): Promise<T> {
  const started = performance.now();
  const m = metrics().answers;
  saving.then(
    (result) => {
      m.duration.observe((performance.now() - started) / 1000);
      (result.ok ? m.saved : m.refused).inc();
    },
    () => m.failed.inc(),
  );
  return saving;
}

/** Counts an answer refused before it reached the save (not JSON, too large, another site's Origin, signed out). */
export function countAnswerRefused(): void {
  metrics().answers.refused.inc();
}

/** Counts a failed sign-in (`reason`: one of platform/auth/errors.ts's codes). */
export function countSigninFailure(method: SigninMethod, reason: string): void {
  metrics().signinFailures.inc({ method, reason });
}

/** Times a PDF job (sign-in sheets) from its turn to the finished file, and counts it: ok or failed. */
export function observePdfJob<T>(job: () => Promise<T>): Promise<T> {
  const m = metrics().pdf;
  const started = performance.now();
  return job().then(
    (result) => {
      m.duration.observe((performance.now() - started) / 1000);
      m.ok.inc();
      return result;
    },
    (error: unknown) => {
      m.failed.inc();
      throw error;
    },
  );
}

/** Counts a PDF job refused before it started (too many waiting: 503). */
export function countPdfBusy(): void {
  metrics().pdf.busy.inc();
}
