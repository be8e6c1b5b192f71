import { describe, expect, it } from "vitest";
import {
  frameAncestorsOf,
  framedSigninRedirect,
  makeFramePass,
  PASS_MINUTES,
  readFramePass,
} from "@/platform/security/frame-pass";

const SECRET = "a-test-secret-of-enough-length-0123456789";
const PORTAL = ["https://portal.example", "https://login.portal.example"];

describe("frame passes (the portal's iframe without a session)", () => {
  it("lets the refused launch's page and the open-in-a-new-window page be framed by a pass's portal origins only; the sign-in form never, every other page by the session's", () => {
    const pass = makeFramePass(PORTAL, SECRET);
    expect(frameAncestorsOf({ pathname: "/lti/refused", pass, session: [] }, SECRET)).toEqual(PORTAL);
    expect(frameAncestorsOf({ pathname: "/lti/open", pass, session: [] }, SECRET)).toEqual(PORTAL);
    // a pass opens no other page, and no page without it
    expect(frameAncestorsOf({ pathname: "/dashboard/student/home", pass, session: [] }, SECRET)).toEqual([]);
    expect(frameAncestorsOf({ pathname: "/lti/refused", pass: null, session: [] }, SECRET)).toEqual([]);
    // the sign-in form is never framed, not even by a launched session's portal
    expect(frameAncestorsOf({ pathname: "/signin", pass, session: PORTAL }, SECRET)).toEqual([]);
    expect(frameAncestorsOf({ pathname: "/dashboard/student/home", pass: null, session: PORTAL }, SECRET)).toEqual(
      PORTAL,
    );
  });

  it("refuses a forged, changed, expired or other secret's pass, and keeps only http(s) origins", () => {
    const pass = makeFramePass(PORTAL, SECRET);
    const [body, tag] = pass.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ o: ["https://attacker.example"], e: 9e9 })).toString("base64url");
    expect(readFramePass(`${forged}.${tag}`, SECRET)).toEqual([]);
    expect(readFramePass(`${body}.${tag.slice(0, -2)}AA`, SECRET)).toEqual([]);
    expect(readFramePass(pass, "another-secret-of-enough-length-0123456789")).toEqual([]);
    expect(readFramePass(pass, SECRET, Date.now() + (PASS_MINUTES * 60 + 1) * 1000)).toEqual([]);
    expect(readFramePass("*", SECRET)).toEqual([]);
    expect(readFramePass(makeFramePass(["*", "javascript:alert(1)", "https://a.example/x"], SECRET), SECRET)).toEqual([
      "https://a.example",
    ]);
  });

  it("sends the sign-in form asked for inside a launched session's frame to the open-in-a-new-window page", () => {
    const to = framedSigninRedirect({ pathname: "/signin", dest: "iframe", session: PORTAL }, SECRET);
    expect(to).toMatch(/^\/lti\/open\?f=/);
    expect(readFramePass(new URL(to!, "https://tool.example").searchParams.get("f"), SECRET)).toEqual(PORTAL);
    expect(framedSigninRedirect({ pathname: "/signin", dest: "document", session: PORTAL }, SECRET)).toBeNull();
    expect(framedSigninRedirect({ pathname: "/signin", dest: "iframe", session: [] }, SECRET)).toBeNull();
  });
});
