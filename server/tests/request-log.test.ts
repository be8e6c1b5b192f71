import { describe, expect, it } from "vitest";
import { accessLevel, REQUEST_ID } from "../request-log";

describe("request ids and access lines (server/request-log.ts)", () => {
  it("keeps only a plain incoming X-Request-Id", () => {
    for (const ok of [
      "abc",
      "5c0f6a1e-8f43-4a4f-9d7e-2b8e1c9a0d11",
      "0123456789abcdef0123456789abcdef",
      "lb.1_a-B",
      "a".repeat(64),
    ])
      expect(REQUEST_ID.test(ok), ok).toBe(true);
    for (const bad of ["", "a".repeat(65), "a b", 'x","level":"error', "a\nb", "../etc/passwd", "ü", "a%0A"])
      expect(REQUEST_ID.test(bad), bad).toBe(false);
  });

  it("writes a class's busy traffic at debug unless it failed, everything else at info, server failures at error", () => {
    expect(accessLevel("/api/v1/answers", 200)).toBe("debug");
    expect(accessLevel("/api/v1/live/0b6c/events", 200)).toBe("debug");
    expect(accessLevel("/api/v1/live/school/events", 499)).toBe("debug"); // the student left the page
    expect(accessLevel("/_next/static/chunks/a.js", 304)).toBe("debug");
    expect(accessLevel("/healthz", 200)).toBe("debug");
    expect(accessLevel("/api/v1/answers", 409)).toBe("info");
    expect(accessLevel("/api/v1/answers", 503)).toBe("error");
    expect(accessLevel("/signin", 200)).toBe("info");
    expect(accessLevel("/dashboard/teacher/home", 499)).toBe("info");
    expect(accessLevel("/nothing-here", 404)).toBe("info");
    expect(accessLevel("/dashboard/teacher/home", 500)).toBe("error");
  });
});
