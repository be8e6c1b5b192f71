import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HOST_SESSION_COOKIE, SESSION_COOKIE, sessionCookieConfig } from "@/platform/auth/cookies";
import { decodeSessionToken, readSessionCookie } from "@/platform/auth/session-token";

const secret = "unit-test-secret-unit-test-secret-unit-test";
const salt = SESSION_COOKIE;
const seal = (token: object, options: { secret?: string; salt?: string; maxAge?: number } = {}) =>
  encode({ token, secret: options.secret ?? secret, salt: options.salt ?? salt, maxAge: options.maxAge });
const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === "A" ? "B" : "A") + s.slice(at + 1);

describe("the session token reader (next-auth's JWE with node:crypto)", () => {
  it("reads what next-auth sealed", async () => {
    const token = await seal({ sub: "u-1", role: "student" });
    expect(decodeSessionToken(token, secret, salt)).toMatchObject({ sub: "u-1", role: "student" });
    expect(await readSessionCookie([{ name: salt, value: token }], secret)).toEqual({
      id: "u-1",
      role: "student",
      sv: 0,
      sid: null,
      frameAncestors: [],
    });
  });

  it("carries the session version of the token (0 for a token from before versions) and a staff device's id", async () => {
    const sid = "0b7c1a52-58d2-4a43-9a38-3f0f1e6a1d2c";
    const token = await seal({ sub: "u-3", role: "teacher", sv: 7, sid });
    expect(await readSessionCookie([{ name: salt, value: token }], secret)).toEqual({
      id: "u-3",
      role: "teacher",
      sv: 7,
      sid,
      frameAncestors: [],
    });
    const forged = await seal({ sub: "u-3", role: "teacher", sv: 7, sid: "' or 1=1 --" });
    expect(await readSessionCookie([{ name: salt, value: forged }], secret)).toMatchObject({ sid: null });
  });

  it("carries an LTI session's framing origins (the portal's), and nothing that is not an http(s) origin", async () => {
    const token = await seal({ sub: "u-4", role: "student", fa: ["https://portal.example", "http://127.0.0.1:9"] });
    expect(await readSessionCookie([{ name: salt, value: token }], secret)).toMatchObject({
      frameAncestors: ["https://portal.example", "http://127.0.0.1:9"],
    });
    const odd = await seal({
      sub: "u-4",
      role: "student",
      fa: ["*", "'self'", "data:x", "https://a.example/x; script-src *", 7],
    });
    expect(await readSessionCookie([{ name: salt, value: odd }], secret)).toMatchObject({
      frameAncestors: ["https://a.example"],
    });
  });

  it("remembers an opened token but checks its expiry on every read, and never shares it across secrets", async () => {
    const token = await seal({ sub: "u-9", role: "student" }, { maxAge: 60 });
    const cookie = [{ name: salt, value: token }];
    expect(await readSessionCookie(cookie, secret)).toEqual({
      id: "u-9",
      role: "student",
      sv: 0,
      sid: null,
      frameAncestors: [],
    });
    expect(await readSessionCookie(cookie, secret)).toEqual({
      id: "u-9",
      role: "student",
      sv: 0,
      sid: null,
      frameAncestors: [],
    }); // from memory
    expect(await readSessionCookie(cookie, `${secret}-other`)).toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 120_000);
    expect(await readSessionCookie(cookie, secret)).toBeNull();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("prefers the __Host- cookie and joins chunked cookies", async () => {
    const secure = await seal({ sub: "u-2", role: "teacher" }, { salt: HOST_SESSION_COOKIE });
    const plain = await seal({ sub: "u-3", role: "student" });
    const cookies = [
      { name: salt, value: plain },
      { name: `${HOST_SESSION_COOKIE}.1`, value: secure.slice(100) },
      { name: `${HOST_SESSION_COOKIE}.0`, value: secure.slice(0, 100) },
    ];
    expect(await readSessionCookie(cookies, secret)).toEqual({
      id: "u-2",
      role: "teacher",
      sv: 0,
      sid: null,
      frameAncestors: [],
    });
  });

  it("refuses a token changed anywhere, sealed with another secret or for another cookie name", async () => {
    const token = await seal({ sub: "u-1", role: "manager" });
    const [h, , iv, ct, tag] = token.split(".");
    for (const bad of [
      `${flip(h!, 4)}..${iv}.${ct}.${tag}`, // protected header
      `${h}..${flip(iv!, 3)}.${ct}.${tag}`, // iv
      `${h}..${iv}.${flip(ct!, 5)}.${tag}`, // ciphertext
      `${h}..${iv}.${ct}.${flip(tag!, 2)}`, // tag
    ]) {
      expect(decodeSessionToken(bad, secret, salt)).toBeNull();
    }
    expect(decodeSessionToken(token, "another-secret-another-secret-another", salt)).toBeNull();
    expect(decodeSessionToken(token, secret, HOST_SESSION_COOKIE)).toBeNull();
    expect(await readSessionCookie([{ name: salt, value: flip(token, token.length - 3) }], secret)).toBeNull();
  });

  it("refuses an expired token (after next-auth's 15 s tolerance) and forms it does not seal", async () => {
    const token = await seal({ sub: "u-1", role: "student" }, { maxAge: 60 });
    const now = Date.now() / 1000;
    expect(decodeSessionToken(token, secret, salt, now + 60 + 10)).not.toBeNull();
    expect(decodeSessionToken(token, secret, salt, now + 60 + 16)).toBeNull();
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify({ sub: "x", role: "manager" })).toString("base64url")}.`;
    expect(decodeSessionToken(unsigned, secret, salt)).toBe("unsupported");
    expect(await readSessionCookie([{ name: salt, value: unsigned }], secret)).toBeNull();
    expect(await readSessionCookie([{ name: salt, value: "garbage" }], secret)).toBeNull();
    expect(await readSessionCookie([], secret)).toBeNull();
  });
});

describe("the session cookie's name and attributes", () => {
  it("is __Host- (Secure, HttpOnly, SameSite=Lax, Path=/) when the app is served over https", () => {
    expect(sessionCookieConfig("https://manabiya.example")).toEqual({
      name: "__Host-manabiya.session",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: true },
    });
  });
  it("has no prefix over plain http, where browsers refuse Secure cookies", () => {
    expect(sessionCookieConfig("http://192.168.1.10:3000")).toMatchObject({
      name: "manabiya.session",
      options: { secure: false, httpOnly: true },
    });
    expect(sessionCookieConfig(undefined)).toMatchObject({ name: "manabiya.session" });
  });
});
