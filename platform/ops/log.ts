/**
 * The one logger (docs/architecture.md "Operations"): JSON lines on stdout,
 * one object per line, level from LOG_LEVEL. Shared through globalThis, like
 * platform/shutdown.ts, so that server/main.ts and every bundle of Next.js (each
 * has its own copy of this module) write through one instance and one
 * destination, and see the same request context.
 *
 * Rules for callers: a user is named by their id only — never a name, an
 * e-mail, a password, a sign-in code, a token or a link that carries one.
 * `redact` below is a backstop for the known paths, not a licence.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { format, stripVTControlCharacters } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import { type LogLevel, logLevel } from "@/platform/env";

/** What every line written while handling one request carries (server/main.ts sets it). */
export interface LogContext {
  reqId: string;
}

/** Keys that must never reach the log, at the top level or one object down (pino `redact`). */
export const REDACTED_KEYS = [
  "password",
  "passwordHash",
  "email",
  "token",
  "secret",
  "authorization",
  "cookie",
  "link",
  "name",
  "displayName",
] as const;
/** Only at the top level (one down they are an error's code or a request's fields). */
const REDACTED_TOP = ["code", "url", "text"] as const;
const REDACT_PATHS = [...REDACTED_KEYS.flatMap((key) => [key, `*.${key}`]), ...REDACTED_TOP];

/** A logger writing to `destination` (stdout when omitted); tests pass their own stream. */
export function createLogger(
  level: LogLevel,
  destination?: DestinationStream,
  context?: AsyncLocalStorage<LogContext>,
): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      // a new object each time: pino merges the line's fields into what mixin returns, and the store must stay as it is
      mixin: () => ({ ...context?.getStore() }),
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

const shared = globalThis as unknown as { manabiyaLog?: Logger; manabiyaLogContext?: AsyncLocalStorage<LogContext> };

/** The request context store (one per process). */
export function logContext(): AsyncLocalStorage<LogContext> {
  return (shared.manabiyaLogContext ??= new AsyncLocalStorage<LogContext>());
}

/** The process's logger, made on first use with LOG_LEVEL (an invalid value throws, naming the variable). */
export function log(): Logger {
  return (shared.manabiyaLog ??= createLogger(logLevel(), undefined, logContext()));
}

/** A command-line tool (tools/cli/admin.ts): its log lines (the audited actions) on stderr, so stdout holds only its answer. */
export function logToStderr(): void {
  shared.manabiyaLog = createLogger(logLevel(), pino.destination({ dest: 2, sync: true }), logContext());
}

/** An error as a log field: its message and stack (pino's serializer under `err`). */
export const errorField = (error: unknown) => ({ err: error instanceof Error ? error : new Error(String(error)) });

/**
 * The production server's console (what Next.js itself prints: its start-up
 * timing, a render error's "⨯ …") goes through the logger too, so stdout holds
 * JSON lines only. Called once by server/main.ts before Next starts.
 */
export function routeConsoleToLog(): void {
  const levels = { debug: "debug", log: "info", info: "info", warn: "warn", error: "error" } as const;
  for (const [method, level] of Object.entries(levels)) {
    console[method as keyof typeof levels] = (...args: unknown[]) => {
      const error = args.find((a) => a instanceof Error);
      const msg = stripVTControlCharacters(format(...args.filter((a) => a !== error))).trim();
      log()[level](
        { event: "console", ...(error ? errorField(error) : {}) },
        msg || (error instanceof Error ? error.message : ""),
      );
    };
  }
}
