import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCode, checkPassword } from "@/platform/auth/credentials";
import { countAttempt, LIMITS, recordSuccess, reserveAttempt } from "@/platform/auth/throttle";
import { db } from "@/platform/db";
import { createAcademy, createSchool, createSigninCode, createUser, uniqueTag } from "../../prisma/seed/factories";
import { TEST_SIGNIN_CODE_KEY } from "../../tests/support/helpers";

const PASSWORD = "correct horse battery";

describe("password and code sign-in checks", () => {
  let student: { id: string; email: string | null };
  let code: string;
  const ip = "203.0.113.7";

  beforeAll(async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `A${tag}`, nameKana: "えー" });
    const school = await createSchool(db(), { academyId: academy.id, name: `S${tag}`, nameKana: "えす" });
    student = await createUser(db(), {
      role: "student",
      email: `Student-${tag}@Example.com`,
      password: PASSWORD,
      schoolId: school.id,
      student: { grade: 1, className: "1", number: 1 },
    });
    code = await createSigninCode(db(), student.id, TEST_SIGNIN_CODE_KEY);
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("signs in with the right password (e-mail case-insensitive) and audits without the password", async () => {
    const ok = await checkPassword({ email: student.email!.toUpperCase(), password: PASSWORD }, ip);
    expect(ok).toEqual({ ok: true, user: { id: student.id, role: "student" } });
    const entries = await db().auditLog.findMany({
      where: { actorId: student.id },
      select: { action: true, meta: true },
    });
    expect(entries.map((e) => e.action)).toContain("signin.password.success");
    expect(JSON.stringify(entries)).not.toContain(PASSWORD);
  });

  it("distinguishes a wrong password from an unknown account, and refuses a malformed e-mail", async () => {
    expect(await checkPassword({ email: student.email, password: "nope" }, ip)).toEqual({
      ok: false,
      code: "wrongPassword",
    });
    expect(await checkPassword({ email: `nobody-${uniqueTag()}@example.com`, password: "x" }, ip)).toEqual({
      ok: false,
      code: "userNotFound",
    });
    expect(await checkPassword({ email: "not-an-address", password: "x" }, ip)).toEqual({
      ok: false,
      code: "invalidEmail",
    });
  });

  it("signs in with a live code, refuses unknown, malformed, revoked and expired ones", async () => {
    expect(await checkCode(code, ip)).toEqual({ ok: true, user: { id: student.id, role: "student" } });
    expect((await checkCode("B".repeat(22), ip)).ok).toBe(false);
    expect(await checkCode("short", ip)).toEqual({ ok: false, code: "invalidCode" });
    await db().signinCode.updateMany({
      where: { userId: student.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await checkCode(code, ip)).toEqual({ ok: false, code: "invalidCode" });
    await db().signinCode.updateMany({
      where: { userId: student.id },
      data: { expiresAt: null, revokedAt: new Date() },
    });
    expect(await checkCode(code, ip)).toEqual({ ok: false, code: "invalidCode" });
  });

  it("locks an account after 10 attempts, with the minutes to wait, and not its classmates", async () => {
    const email = `locked-${uniqueTag()}@example.com`;
    const account = { kind: "account" as const, value: email };
    for (let i = 0; i < LIMITS.account; i++) expect((await reserveAttempt(account, "192.0.2.1")).ok).toBe(true);
    const refused = await reserveAttempt(account, "192.0.2.1");
    expect(refused.ok).toBe(false);
    const wait = refused.ok ? 0 : refused.retryMinutes;
    expect(wait).toBeGreaterThanOrEqual(14);
    expect(wait).toBeLessThanOrEqual(15);
    expect((await reserveAttempt({ kind: "account", value: `other-${email}` }, "192.0.2.1")).ok).toBe(true);
  });

  it("grants at most the limit of 100 concurrent reservations for one account", async () => {
    const account = { kind: "account" as const, value: `race-${uniqueTag()}@example.com` };
    const results = await Promise.all(Array.from({ length: 100 }, () => reserveAttempt(account, "192.0.2.2")));
    expect(results.filter((r) => r.ok)).toHaveLength(LIMITS.account);
  });

  it("over the address ceiling, an address still gets the first try at each account; a success gives the slot back", async () => {
    const ip = `192.0.2.${100 + Math.floor(Math.random() * 100)}-${uniqueTag()}`;
    for (let i = 0; i < LIMITS.ip; i++) await countAttempt({ kind: "ip", value: ip });
    const fresh = { kind: "account" as const, value: `fresh-${uniqueTag()}@example.com` };
    expect((await reserveAttempt(fresh, ip)).ok).toBe(true);
    expect((await reserveAttempt(fresh, ip)).ok).toBe(false);
    await recordSuccess(fresh, ip);
    expect((await reserveAttempt(fresh, ip)).ok).toBe(true);
  });

  it("never throttles correct sign-ins from one school IP", async () => {
    for (let i = 0; i < 30; i++) {
      expect((await checkPassword({ email: student.email, password: PASSWORD }, "198.51.100.1")).ok).toBe(true);
    }
  });
});
