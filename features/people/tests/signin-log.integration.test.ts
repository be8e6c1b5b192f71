import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCode, checkPassword } from "@/platform/auth/credentials";
import { pruneExpiredAuditEntries } from "@/platform/audit/retention";
import { createResetLink, resetPasswordWithToken } from "@/platform/auth/password-reset";
import { db } from "@/platform/db";
import { exportSigninLog, listSigninLog, type SigninLogScope } from "@/features/people/server/signin-log-queries";
import { signinLogQuery } from "@/features/people/shared/signin-log";
import { createAcademy, createSchool, createUser } from "../../../prisma/seed/factories";
import { twoSchools } from "../../../tests/support/two-schools";

const PASSWORD = "typed-Secret-42";
const UA = "Mozilla/5.0 (test) SigninLog";
const all = (patch: Record<string, unknown> = {}) => signinLogQuery.parse(patch);

describe("the sign-in log", () => {
  let a: Awaited<ReturnType<typeof twoSchools>>;
  let teacher: { id: string; email: string | null };
  let colleague: { id: string; email: string | null };
  let outsider: { id: string; email: string | null };
  let managerScope: SigninLogScope;
  let otherAcademyScope: SigninLogScope;

  beforeAll(async () => {
    a = await twoSchools();
    const mail = (who: string) => `${who}-${a.tag}@example.com`;
    teacher = await createUser(db(), { role: "teacher", email: mail("t"), password: PASSWORD, schoolId: a.school.id });
    colleague = await createUser(db(), { role: "teacher", email: mail("c"), password: PASSWORD, schoolId: a.other.id });
    const b = await createAcademy(db(), { name: `B${a.tag}`, nameKana: "びー" });
    const bSchool = await createSchool(db(), { academyId: b.id, name: `B${a.tag}`, nameKana: "びー" });
    outsider = await createUser(db(), { role: "teacher", email: mail("o"), password: PASSWORD, schoolId: bSchool.id });
    managerScope = { academyId: a.academy.id };
    otherAcademyScope = { academyId: b.id };
    await checkPassword({ email: teacher.email, password: "wrong-guess-1" }, "198.51.100.20", UA);
    await checkPassword({ email: teacher.email, password: PASSWORD }, "198.51.100.20", UA);
    await checkPassword({ email: colleague.email, password: PASSWORD }, "198.51.100.21", UA);
    await checkPassword({ email: outsider.email, password: PASSWORD }, "198.51.100.22", UA);
    await checkPassword({ email: mail("nobody"), password: "wrong-guess-2" }, "198.51.100.23", UA);
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("records every attempt with method, result, address and user agent, never the typed password", async () => {
    const rows = await db().auditLog.findMany({
      where: { actorId: teacher.id },
      orderBy: { id: "asc" },
      select: { action: true, ip: true, userAgent: true, meta: true, schoolId: true },
    });
    expect(rows.map((r) => r.action)).toEqual(["signin.password.failure", "signin.password.success"]);
    expect(rows[0]).toMatchObject({ ip: "198.51.100.20", userAgent: UA, schoolId: a.school.id });
    expect(rows[0]?.meta).toMatchObject({ reason: "wrongPassword" });
    const everything = JSON.stringify(
      await db().auditLog.findMany({ where: { ip: { startsWith: "198.51.100.2" } } }),
      (_, v) => (typeof v === "bigint" ? String(v) : v),
    );
    expect(everything).not.toContain("wrong-guess");
    expect(everything).not.toContain(PASSWORD);
  });

  it("records an unknown e-mail linked to no account and no academy", async () => {
    const rows = await db().auditLog.findMany({
      where: { ip: "198.51.100.23" },
      select: { action: true, actorId: true, academyId: true, schoolId: true, meta: true },
    });
    expect(rows).toEqual([
      {
        action: "signin.password.failure",
        actorId: null,
        academyId: null,
        schoolId: null,
        meta: { email: `nobody-${a.tag}@example.com`, reason: "userNotFound" },
      },
    ]);
  });

  it("records a code sign-in refused by the throttle, and cuts a huge user agent", async () => {
    const ip = `198.51.100.${30 + (Number.parseInt(a.tag, 36) % 50)}`;
    for (let i = 0; i < 11; i++) await checkCode("C".repeat(22), ip, "x".repeat(5000));
    const rows = await db().auditLog.findMany({ where: { ip, action: { startsWith: "signin.code." } } });
    expect(rows.map((r) => r.action).filter((x) => x === "signin.code.throttled").length).toBeGreaterThan(0);
    expect(Math.max(...rows.map((r) => r.userAgent?.length ?? 0))).toBe(512);
  });

  it("shows a manager their academy's entries only, newest first, and a teacher their own", async () => {
    const mine = await listSigninLog(managerScope, all());
    const emails = new Set(mine.rows.map((r) => r.email));
    expect(emails.has(teacher.email)).toBe(true);
    expect(emails.has(colleague.email)).toBe(true);
    expect(emails.has(outsider.email)).toBe(false);
    expect(emails.has(`nobody-${a.tag}@example.com`)).toBe(false);
    expect(mine.rows[0]).toMatchObject({ email: colleague.email, method: "password", result: "success" });
    const theirs = await listSigninLog(otherAcademyScope, all());
    expect(theirs.rows.map((r) => r.email)).toEqual([outsider.email]);
    const own = await listSigninLog({ ownUserId: teacher.id }, all());
    expect(own.rows.map((r) => [r.result, r.reason, r.ip, r.userAgent])).toEqual([
      ["success", null, "198.51.100.20", UA],
      ["failure", "wrongPassword", "198.51.100.20", UA],
    ]);
  });

  it("filters by person text, method, result and school-time dates, the export by the same", async () => {
    const failures = await listSigninLog(managerScope, all({ result: "failure" }));
    expect(failures.rows.map((r) => r.email)).toEqual([teacher.email]);
    expect((await listSigninLog(managerScope, all({ q: `C-${a.tag}` }))).rows.map((r) => r.email)).toEqual([
      colleague.email,
    ]);
    expect((await listSigninLog(managerScope, all({ method: "google" }))).total).toBe(0);
    expect(
      (await listSigninLog(managerScope, all({ method: "change" }))).rows.every((r) => r.method === "change"),
    ).toBe(true);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Tokyo" }).format(new Date());
    expect((await listSigninLog(managerScope, all({ from: today, to: today }))).total).toBe(
      (await listSigninLog(managerScope, all())).total,
    );
    expect((await listSigninLog(managerScope, all({ to: "2000-01-01" }))).total).toBe(0);
    const exported = await exportSigninLog(managerScope, all({ result: "failure" }), 10);
    expect(exported?.map((r) => r.email)).toEqual([teacher.email]);
    expect(await exportSigninLog(managerScope, all(), 1)).toBeNull();
  });

  it("shows a password reset on the manager's log and the teacher's own, with the address and user agent", async () => {
    const token = new URL(await createResetLink(colleague.id)).searchParams.get("token")!;
    const client = { ip: "198.51.100.24", userAgent: UA };
    expect(await resetPasswordWithToken(token, "a-new-Password-9", client)).toBe("ok");
    const resets = await listSigninLog(managerScope, all({ method: "reset" }));
    expect(resets.rows.map((r) => [r.email, r.method, r.result, r.ip, r.userAgent])).toEqual([
      [colleague.email, "reset", "success", "198.51.100.24", UA],
    ]);
    expect((await listSigninLog({ ownUserId: colleague.id }, all())).rows[0]).toMatchObject({ method: "reset" });
    expect(
      JSON.stringify(await db().auditLog.findMany({ where: { ip: "198.51.100.24" } }), (_, v) =>
        typeof v === "bigint" ? String(v) : v,
      ),
    ).not.toContain("a-new-Password-9");
  });

  it("the second factor's filter lists every second step: an app's code, a recovery code and a passkey", async () => {
    const ip = "198.51.100.31";
    for (const action of ["signin.totp.success", "signin.recovery.failure", "signin.passkey.success"])
      await db().auditLog.create({
        data: { action, actorId: colleague.id, schoolId: a.other.id, academyId: a.academy.id, ip },
        select: { id: true },
      });
    const factors = await listSigninLog(managerScope, all({ method: "factor" }));
    expect(factors.rows.filter((r) => r.ip === ip).map((r) => [r.method, r.result])).toEqual([
      ["factor", "success"],
      ["factor", "failure"],
      ["factor", "success"],
    ]);
  });

  it("removes entries older than the retention and keeps the rest", async () => {
    const old = await db().auditLog.create({
      data: { action: "signin.password.success", actorId: teacher.id, at: new Date(Date.now() - 1096 * 86_400_000) },
      select: { id: true },
    });
    const kept = await db().auditLog.create({
      data: { action: "signin.password.success", actorId: teacher.id, at: new Date(Date.now() - 1094 * 86_400_000) },
      select: { id: true },
    });
    expect(await pruneExpiredAuditEntries(1095)).toBeGreaterThanOrEqual(1);
    const left = await db().auditLog.findMany({ where: { id: { in: [old.id, kept.id] } }, select: { id: true } });
    expect(left).toEqual([{ id: kept.id }]);
  });
});
