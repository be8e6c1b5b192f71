import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, originOf, sameOrigin } from "@/platform/security/headers";

describe("security headers", () => {
  it("allows no third-party origin except the sign-in issuer as a form target", () => {
    const csp = contentSecurityPolicy("abc", { dev: false, formTargets: ["https://accounts.google.com"] });
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' https://accounts.google.com");
    expect(csp.match(/https?:\/\/[^\s;']+/g)).toEqual(["https://accounts.google.com"]);
    expect(originOf("not a url")).toBeNull();
  });

  it("lets an LTI session's pages be framed by its portal's origins only, every other page by none", () => {
    const framed = contentSecurityPolicy("abc", {
      dev: false,
      formTargets: [],
      frameAncestors: ["https://portal.example", "https://login.portal.example"],
    });
    expect(framed).toMatch(/; frame-ancestors https:\/\/portal\.example https:\/\/login\.portal\.example$/);
    expect(contentSecurityPolicy("abc", { dev: false, formTargets: [], frameAncestors: [] })).toContain(
      "frame-ancestors 'none'",
    );
  });

  it("refuses a state-changing request from another site or with Origin: null", () => {
    const h = (entries: Record<string, string>) => new Headers(entries);
    expect(
      sameOrigin(h({ host: "school.example", origin: "https://school.example" }), "https://school.example/api"),
    ).toBe(true);
    expect(
      sameOrigin(h({ host: "school.example", origin: "https://evil.example" }), "https://school.example/api"),
    ).toBe(false);
    expect(sameOrigin(h({ host: "school.example", origin: "null" }), "https://school.example/api")).toBe(false);
    expect(sameOrigin(h({ host: "school.example" }), "https://school.example/api")).toBe(true);
    expect(sameOrigin(h({ host: "school.example", origin: "::::" }), "https://school.example/api")).toBe(false);
  });
});
