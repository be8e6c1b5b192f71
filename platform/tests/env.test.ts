import { describe, expect, it } from "vitest";
import { EnvError, parseEnv, publicUrl } from "@/platform/env";

const good = {
  DATABASE_URL: "postgresql://u:p@localhost:5432/db",
  AUTH_SECRET: "x".repeat(32),
  SIGNIN_CODE_KEY: "ab".repeat(32),
};

describe("environment validation", () => {
  it("accepts a complete environment and applies defaults", () => {
    const env = parseEnv(good);
    expect(env.GOOGLE_ISSUER).toBe("https://accounts.google.com");
    expect(env.ENTRA_ISSUER).toBe("https://login.microsoftonline.com/organizations/v2.0");
    expect(env.SEED_DEMO).toBe(false);
    expect(env).toMatchObject({
      HTTP_MAX_CONNECTIONS_PER_IP: 2048,
      LIVE_STREAMS_PER_USER: 4,
      DB_CONNECT_TIMEOUT_MS: 5000,
    });
    expect(parseEnv({ ...good, LIVE_STREAMS_MAX: "12" }).LIVE_STREAMS_MAX).toBe(12);
  });

  it.each([
    ["DATABASE_URL", { DATABASE_URL: "mysql://x" }],
    ["AUTH_SECRET", { AUTH_SECRET: "short" }],
    ["SIGNIN_CODE_KEY", { SIGNIN_CODE_KEY: "not-hex" }],
    ["GOOGLE_ISSUER", { GOOGLE_ISSUER: "nope" }],
    ["ENTRA_ISSUER", { ENTRA_ISSUER: "nope" }],
    ["HTTP_IDLE_TIMEOUT_MS", { HTTP_IDLE_TIMEOUT_MS: "10000" }],
    ["LIVE_STREAMS_PER_USER", { LIVE_STREAMS_PER_USER: "0" }],
    ["DB_CONNECT_TIMEOUT_MS", { DB_CONNECT_TIMEOUT_MS: "soon" }],
    ["METRICS_TOKEN", { METRICS_TOKEN: "too-short-to-guard-metrics" }],
  ])("names %s when it is bad", (name, patch) => {
    expect(() => parseEnv({ ...good, ...patch })).toThrowError(EnvError);
    try {
      parseEnv({ ...good, ...patch });
    } catch (e) {
      expect((e as Error).message).toContain(name);
    }
  });

  it("takes a METRICS_TOKEN of 32 characters or more; empty (compose's default) leaves the metrics off", () => {
    expect(parseEnv({ ...good, METRICS_TOKEN: "m".repeat(32) }).METRICS_TOKEN).toBe("m".repeat(32));
    expect(parseEnv({ ...good, METRICS_TOKEN: "" }).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv(good).METRICS_TOKEN).toBeUndefined();
  });

  it("names a missing variable", () => {
    const { AUTH_SECRET: _omit, ...rest } = good;
    expect(() => parseEnv(rest)).toThrowError(/AUTH_SECRET/);
  });

  it("refuses to start in production without the public address (AUTH_URL), and links use only it", () => {
    expect(() => parseEnv({ ...good, NODE_ENV: "production" })).toThrowError(/AUTH_URL is required in production/);
    const env = parseEnv({ ...good, NODE_ENV: "production", AUTH_URL: "https://manabiya.example.jp/" });
    expect(publicUrl(env)).toBe("https://manabiya.example.jp");
    expect(publicUrl(parseEnv({ ...good, PORT: "3123" }))).toBe("http://localhost:3123");
  });

  it("reads TRUSTED_PROXY_HOPS as a small whole number, 0 by default", () => {
    expect(parseEnv(good).TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseEnv({ ...good, TRUSTED_PROXY_HOPS: "1" }).TRUSTED_PROXY_HOPS).toBe(1);
    for (const bad of ["-1", "1.5", "x", "9"])
      expect(() => parseEnv({ ...good, TRUSTED_PROXY_HOPS: bad })).toThrowError(/TRUSTED_PROXY_HOPS/);
  });
});
