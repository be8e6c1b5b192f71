import { AsyncLocalStorage } from "node:async_hooks";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { EnvError, logLevel, parseEnv } from "@/platform/env";
import { createLogger, errorField, type LogContext, routeConsoleToLog } from "@/platform/ops/log";

/** A destination that keeps every JSON line written to it. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe("the logger (platform/ops/log.ts)", () => {
  it("writes one JSON object per line with time, level name and message", () => {
    const { lines, stream } = capture();
    createLogger("info", stream).info({ event: "x.y" }, "hello");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", msg: "hello", event: "x.y" });
    expect(new Date(lines[0]!.time as string).getTime()).not.toBeNaN();
  });

  it("drops lines below the level", () => {
    const { lines, stream } = capture();
    const logger = createLogger("warn", stream);
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(lines.map((l) => l.level)).toEqual(["warn", "error"]);
  });

  it("redacts passwords, e-mails, tokens, codes and cookies, at the top level and one object down", () => {
    const { lines, stream } = capture();
    createLogger("debug", stream).info({
      email: "t@example.jp",
      password: "hunter22",
      code: "ABCD-1234",
      token: "tok",
      user: { email: "u@example.jp", name: "山田" },
      headers: { cookie: "authjs.session-token=zzz", authorization: "Bearer q" },
      userId: "8f1c0000-0000-4000-8000-000000000000",
    });
    const text = JSON.stringify(lines[0]);
    for (const secret of ["t@example.jp", "hunter22", "ABCD-1234", 'tok"', "u@example.jp", "山田", "zzz", "Bearer q"])
      expect(text).not.toContain(secret);
    expect(lines[0]!.userId).toBe("8f1c0000-0000-4000-8000-000000000000");
  });

  it("adds the request context of the async call chain to every line", async () => {
    const { lines, stream } = capture();
    const context = new AsyncLocalStorage<LogContext>();
    const logger = createLogger("info", stream, context);
    await context.run({ reqId: "req-1" }, async () => {
      await new Promise((r) => setImmediate(r));
      logger.info("inside");
    });
    logger.info("outside");
    await context.run({ reqId: "req-2" }, async () => {
      logger.info({ userId: "u-1", event: "first" }, "one");
      logger.info("two");
    });
    expect(lines[0]).toMatchObject({ msg: "inside", reqId: "req-1" });
    expect(lines[1]!.reqId).toBeUndefined();
    // one line's fields never stick to the next line of the same request
    expect(lines[3]).toEqual(expect.objectContaining({ msg: "two", reqId: "req-2" }));
    expect(lines[3]!.userId).toBeUndefined();
    expect(lines[3]!.event).toBeUndefined();
  });

  it("writes an error with its stack", () => {
    const { lines, stream } = capture();
    createLogger("info", stream).error(errorField(new Error("boom")), "failed");
    expect(lines[0]!.err).toMatchObject({ message: "boom", type: "Error" });
    expect((lines[0]!.err as { stack: string }).stack).toContain("log.test.ts");
  });
});

describe("LOG_LEVEL", () => {
  it("defaults to info, and accepts debug, info, warn and error", () => {
    expect(logLevel({})).toBe("info");
    expect(logLevel({ LOG_LEVEL: "" })).toBe("info");
    for (const level of ["debug", "info", "warn", "error"]) expect(logLevel({ LOG_LEVEL: level })).toBe(level);
  });

  it("refuses another value with a message naming the variable and the choices", () => {
    expect(() => logLevel({ LOG_LEVEL: "verbose" })).toThrowError(EnvError);
    expect(() => logLevel({ LOG_LEVEL: "verbose" })).toThrowError(/LOG_LEVEL must be one of debug, info, warn, error/);
    const env = {
      DATABASE_URL: "postgresql://u:p@localhost:5432/db",
      AUTH_SECRET: "x".repeat(32),
      SIGNIN_CODE_KEY: "ab".repeat(32),
    };
    expect(() => parseEnv({ ...env, LOG_LEVEL: "trace" })).toThrowError(
      /LOG_LEVEL must be one of debug, info, warn, error/,
    );
    expect(parseEnv({ ...env, LOG_LEVEL: "" }).LOG_LEVEL).toBe("info");
  });
});

describe("the server's console (routeConsoleToLog)", () => {
  it("writes what Next.js prints as JSON lines, without colour codes, an error with its stack", () => {
    const saved = {
      debug: console.debug,
      log: console.log,
      info: console.info,
      warn: console.warn,
      error: console.error,
    };
    const shared = globalThis as { manabiyaLog?: unknown };
    const before = shared.manabiyaLog;
    const { lines, stream } = capture();
    shared.manabiyaLog = createLogger("info", stream);
    try {
      routeConsoleToLog();
      console.log("\u001b[32m✓\u001b[39m Running %s took %d ms", "next.config.ts", 12);
      console.error(" ⨯", new Error("render failed"));
      console.debug("hidden at info");
    } finally {
      Object.assign(console, saved);
      shared.manabiyaLog = before;
    }
    expect(lines).toEqual([
      expect.objectContaining({ level: "info", event: "console", msg: "✓ Running next.config.ts took 12 ms" }),
      expect.objectContaining({
        level: "error",
        event: "console",
        msg: "⨯",
        err: expect.objectContaining({ message: "render failed", stack: expect.any(String) }),
      }),
    ]);
  });
});
