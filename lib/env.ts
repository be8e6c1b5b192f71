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
