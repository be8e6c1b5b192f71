import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPassword } from "@/platform/auth/credentials";
import { requestPasswordReset } from "@/platform/auth/password-reset";
import { LIMITS } from "@/platform/auth/throttle";
import { db } from "@/platform/db";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../prisma/seed/factories";

const PASSWORD = "correct horse battery";

/** Lockout under parallel attempts: the count is taken before the check, atomically. */
describe("throttling under concurrency", () => {
  let teacher: { id: string; email: string | null };

  beforeAll(async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `A${tag}`, nameKana: "えー" });
    const school = await createSchool(db(), { academyId: academy.id, name: `S${tag}`, nameKana: "えす" });
    teacher = await createUser(db(), {
      role: "teacher",
      email: `race-${tag}@example.com`,
      password: PASSWORD,
      schoolId: school.id,
    });
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("60 concurrent wrong passwords run argon2 at most the limit; then the right one is refused", async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        checkPassword({ email: teacher.email, password: `wrong-${i}` }, "192.0.2.60"),
      ),
    );
    expect(results.every((r) => !r.ok)).toBe(true);
    const verified = await db().auditLog.count({ where: { actorId: teacher.id, action: "signin.password.failure" } });
    expect(verified).toBe(LIMITS.account);
    expect(await checkPassword({ email: teacher.email, password: PASSWORD }, "192.0.2.60")).toMatchObject({
      ok: false,
      code: "tooManyRequests",
    });
  });

  it("40 concurrent reset requests for one account issue at most the limit of links", async () => {
    const email = teacher.email!;
    await Promise.all(
      Array.from({ length: 40 }, () => requestPasswordReset(email, (url) => ({ subject: "reset", text: url }))),
    );
    expect(await db().passwordResetToken.count({ where: { userId: teacher.id } })).toBe(LIMITS.account);
  });
});
