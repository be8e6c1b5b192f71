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
const count = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** Resource limits of the production server (scripts/server.ts) and the database pools (lib/db-client.ts). */
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
};

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string({ error: "DATABASE_URL is required (postgresql://user:password@host:5432/db)" })
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgresql:// URL"),
  AUTH_SECRET: z
    .string({ error: "AUTH_SECRET is required (at least 32 random characters)" })
    .min(32, "AUTH_SECRET must be at least 32 characters"),
  SIGNIN_CODE_KEY: z
    .string({ error: "SIGNIN_CODE_KEY is required (64 hex characters)" })
    .regex(/^[0-9a-fA-F]{64}$/, "SIGNIN_CODE_KEY must be 64 hex characters (32 bytes)"),
  AUTH_URL: z.url("AUTH_URL must be a URL").optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.url("GOOGLE_ISSUER must be a URL").default("https://accounts.google.com"),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "SMTP_URL must be an smtp:// or smtps:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  MAIL_FROM: z.string().default("Manabiya <no-reply@manabiya.invalid>"),
  SEED_DEMO: booleanish,
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  ...limitsSchema,
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
    throw new EnvError(
      result.error.issues.map((issue) => `${issue.path.join(".") || "(env)"}: ${issue.message}`),
    );
  }
  return result.data;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
