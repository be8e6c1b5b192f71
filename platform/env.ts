import { z } from "zod";

/**
 * The one place that reads process.env. Validated lazily (on first use) so that
 * `next build` works without a database; a bad value stops start-up with a
 * message that names the variable (scripts/start.ts calls loadEnv() first).
 */
const booleanish = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

/** A whole number from the environment, within bounds, with a default (docs: .env.example). */
const count = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** Resource limits of the production server (server/main.ts) and the database pools (platform/db/pools.ts). */
const limitsSchema = {
  HTTP_MAX_CONNECTIONS: count(8192, 16, 1_000_000),
  HTTP_MAX_CONNECTIONS_PER_IP: count(2048, 4, 1_000_000),
  HTTP_HEADERS_TIMEOUT_MS: count(15_000, 500, 300_000),
  HTTP_REQUEST_TIMEOUT_MS: count(60_000, 1_000, 3_600_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: count(5_000, 500, 300_000),
  HTTP_IDLE_TIMEOUT_MS: count(120_000, 20_000, 3_600_000),
  LIVE_STREAMS_PER_USER: count(4, 1, 100),
  LIVE_STREAMS_MAX: count(4000, 1, 1_000_000),
  DB_CONNECT_TIMEOUT_MS: count(5_000, 500, 120_000),
  DB_STATEMENT_TIMEOUT_MS: count(15_000, 1_000, 3_600_000),
  /** The stored images a school may hold, in MB (features/scenes/server/image-store.ts). */
  IMAGE_QUOTA_MB: count(500, 1, 1_000_000),
  /** Hours an image may stay placed in no content before the clean-up removes it (features/scenes/server/image-cleanup.ts). */
  IMAGE_UNUSED_GRACE_HOURS: count(168, 1, 87_600),
  /** Days the audit log, and with it the sign-in log, keeps an entry (platform/audit/retention.ts); three years by default. */
  SIGNIN_LOG_RETENTION_DAYS: count(1095, 30, 36_500),
};

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const logLevelSchema = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.enum(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (default info)`).default("info"),
);

export const AUTH_URL_REQUIRED =
  "AUTH_URL is required in production (the public address, e.g. https://manabiya.example.jp): links in mails and on sign-in sheets are built from it";

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z
      .string({ error: "DATABASE_URL is required (postgresql://user:password@host:5432/db)" })
      .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgresql:// URL"),
    /**
     * The direct connection to the database when DATABASE_URL is a transaction pooler (PgBouncer in transaction
     * mode, a managed pooler): LISTEN, the migrations' lock, backup and restore use it (docs/scaling.md
     * "What runs where"). Unset or empty: everything uses DATABASE_URL.
     */
    DATABASE_DIRECT_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "DATABASE_DIRECT_URL must be a postgresql:// URL")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    AUTH_SECRET: z
      .string({ error: "AUTH_SECRET is required (at least 32 random characters)" })
      .min(32, "AUTH_SECRET must be at least 32 characters"),
    SIGNIN_CODE_KEY: z
      .string({ error: "SIGNIN_CODE_KEY is required (64 hex characters)" })
      .regex(/^[0-9a-fA-F]{64}$/, "SIGNIN_CODE_KEY must be 64 hex characters (32 bytes)"),
    /** The public address of the app: every link in a mail or on a printed sheet is built from it, never from the request. */
    AUTH_URL: z.url("AUTH_URL must be a URL").optional(),
    /** Reverse proxies in front of the app that append to X-Forwarded-For (nginx: 1); 0 = the socket's address is the client's. */
    TRUSTED_PROXY_HOPS: z.coerce
      .number("TRUSTED_PROXY_HOPS must be a whole number from 0 to 5")
      .int()
      .min(0)
      .max(5)
      .default(0),
    PORT: z.string().optional(),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    GOOGLE_ISSUER: z.url("GOOGLE_ISSUER must be a URL").default("https://accounts.google.com"),
    ENTRA_CLIENT_ID: z.string().optional(),
    ENTRA_CLIENT_SECRET: z.string().optional(),
    /** Entra ID's issuer: any organisation's (a multi-tenant app), or https://login.microsoftonline.com/<tenant id>/v2.0 for one (README "Microsoft sign-in"). */
    ENTRA_ISSUER: z.url("ENTRA_ISSUER must be a URL").default("https://login.microsoftonline.com/organizations/v2.0"),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "SMTP_URL must be an smtp:// or smtps:// URL")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    MAIL_FROM: z.string().default("Manabiya <no-reply@manabiya.invalid>"),
    SEED_DEMO: booleanish,
    /** The bearer token GET /metrics asks for (app/metrics/route.ts); unset or empty: the endpoint is off (404). */
    METRICS_TOKEN: z
      .string()
      .min(32, "METRICS_TOKEN must be at least 32 characters (e.g. openssl rand -hex 32)")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** Set by scripts/start.ts when it runs the demo school (embedded database or SEED_DEMO): the demo mailbox page exists. */
    MANABIYA_DEMO: booleanish,
    LOG_LEVEL: logLevelSchema,
    ...limitsSchema,
  })
  .superRefine((value, ctx) => {
    if (value.NODE_ENV === "production" && !value.AUTH_URL) {
      ctx.addIssue({ code: "custom", path: ["AUTH_URL"], message: AUTH_URL_REQUIRED });
    }
  });

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".") || "(env)"}: ${issue.message}`));
  }
  return result.data;
}

/** LOG_LEVEL alone (platform/ops/log.ts: the logger must not need the database's settings); a bad value throws EnvError. */
export function logLevel(source: Record<string, string | undefined> = process.env): LogLevel {
  const result = logLevelSchema.safeParse(source.LOG_LEVEL);
  if (!result.success) throw new EnvError([`LOG_LEVEL: ${result.error.issues[0]?.message ?? "invalid"}`]);
  return result.data;
}

let cached: Env | undefined;

/** The app's public address without a trailing slash (AUTH_URL; on a developer machine http://localhost:PORT). Never taken from a request. */
export function publicUrl(source: Env = env()): string {
  return (source.AUTH_URL ?? `http://localhost:${source.PORT ?? 3000}`).replace(/\/+$/, "");
}

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
