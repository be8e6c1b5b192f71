import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/lib/env";

const good = {
  DATABASE_URL: "postgresql://u:p@localhost:5432/db",
  AUTH_SECRET: "x".repeat(32),
  SIGNIN_CODE_KEY: "ab".repeat(32),
};

describe("environment validation", () => {
  it("accepts a complete environment and applies defaults", () => {
    const env = parseEnv(good);
    expect(env.GOOGLE_ISSUER).toBe("https://accounts.google.com");
    expect(env.SEED_DEMO).toBe(false);
  });

  it.each([
    ["DATABASE_URL", { DATABASE_URL: "mysql://x" }],
    ["AUTH_SECRET", { AUTH_SECRET: "short" }],
    ["SIGNIN_CODE_KEY", { SIGNIN_CODE_KEY: "not-hex" }],
    ["GOOGLE_ISSUER", { GOOGLE_ISSUER: "nope" }],
  ])("names %s when it is bad", (name, patch) => {
    expect(() => parseEnv({ ...good, ...patch })).toThrowError(EnvError);
    try {
      parseEnv({ ...good, ...patch });
    } catch (e) {
      expect((e as Error).message).toContain(name);
    }
  });

  it("names a missing variable", () => {
    const { AUTH_SECRET: _omit, ...rest } = good;
    expect(() => parseEnv(rest)).toThrowError(/AUTH_SECRET/);
  });
});
