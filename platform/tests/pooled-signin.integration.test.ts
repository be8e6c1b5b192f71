/**
 * Sign-in's query paths with the app's database behind a transaction pooler (PgBouncer 1.18 in transaction
 * mode: tests/support/pgbouncer.ts; DATABASE_URL through it, DATABASE_DIRECT_URL straight to the database):
 * the password and the code checked, throttled and audited, many at once, and the readiness check's query.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCode, checkPassword } from "@/platform/auth/credentials";
import { db } from "@/platform/db";
import { readiness } from "@/platform/ops/health";
import { createAcademy, createSchool, createSigninCode, createUser, uniqueTag } from "../../prisma/seed/factories";
import { TEST_SIGNIN_CODE_KEY } from "../../tests/support/helpers";
import { throughPooler } from "../../tests/support/pooler";

// the app's settings as an operator behind a transaction pooler writes them (read on first use)
process.env.DATABASE_DIRECT_URL = process.env.DATABASE_URL;
process.env.DATABASE_URL = throughPooler(process.env.DATABASE_URL!);

const PASSWORD = "correct horse battery";
const people: { id: string; email: string; code: string }[] = [];

beforeAll(async () => {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `A${tag}`, nameKana: "えー" });
  const school = await createSchool(db(), { academyId: academy.id, name: `S${tag}`, nameKana: "えす" });
  for (let n = 1; n <= 6; n++) {
    const user = await createUser(db(), {
      role: "student",
      email: `p${n}-${tag}@example.com`,
      password: PASSWORD,
      schoolId: school.id,
      student: { grade: 1, className: "1", number: n },
    });
    people.push({ id: user.id, email: user.email!, code: await createSigninCode(db(), user.id, TEST_SIGNIN_CODE_KEY) });
  }
});
afterAll(async () => {
  await db().$disconnect();
});

describe("sign-in behind a transaction pooler", () => {
  it("a class signing in at once, by password and by code, wrong passwords refused and audited", async () => {
    const ip = "203.0.113.9";
    const results = await Promise.all(
      people.flatMap((p) => [
        checkPassword({ email: p.email, password: PASSWORD }, ip),
        checkCode(p.code, ip),
        checkPassword({ email: p.email, password: "nope" }, ip),
      ]),
    );
    expect(results).toEqual(
      people.flatMap((p) => [
        { ok: true, user: { id: p.id, role: "student" } },
        { ok: true, user: { id: p.id, role: "student" } },
        { ok: false, code: "wrongPassword" },
      ]),
    );
    const audited = await db().auditLog.groupBy({
      by: ["action"],
      where: { actorId: { in: people.map((p) => p.id) } },
      _count: true,
    });
    expect(Object.fromEntries(audited.map((a) => [a.action, a._count]))).toMatchObject({
      "signin.password.success": people.length,
    });
  });

  it("the readiness check reads the migrations through it", async () => {
    expect(await readiness()).toMatchObject({ ready: true, database: "ok", migrations: "current" });
  });
});
