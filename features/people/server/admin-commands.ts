import "server-only";
import { audit } from "@/platform/audit/log";
import { hashPassword } from "@/platform/auth/password";
import { createResetLink } from "@/platform/auth/password-reset";
import { deleteSecondFactors } from "@/platform/auth/second-factor-commands";
import { endSessions } from "@/platform/auth/session-version-commands";
import { throttleKey } from "@/platform/auth/throttle";
import { db, isUniqueViolation } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";

/**
 * What the administrator's command line does (tools/cli/admin.ts; README
 * "The first manager"): bring an empty database to life and help a locked-out staff
 * member, without SQL. Each action is in the audit log with `via: "cli"` and no
 * actor (it is the server's operator, not a user).
 */
const CLI = { via: "cli" } as const;
/** A set-password link printed for a person to use, valid this long. */
export const ADMIN_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export async function createAcademy(input: { name: string; nameKana: string }): Promise<{ id: string }> {
  const academy = await db().academy.create({ data: input, select: { id: true } });
  await audit({
    action: "admin.academy.create",
    academyId: academy.id,
    targetType: "academy",
    targetId: academy.id,
    meta: CLI,
  });
  return academy;
}

export async function createSchool(input: {
  academyId: string;
  name: string;
  nameKana: string;
}): Promise<ActionResult<{ id: string }>> {
  const academy = await db().academy.findUnique({ where: { id: input.academyId }, select: { id: true } });
  if (!academy) return fail("NOT_FOUND");
  const school = await db().school.create({ data: input, select: { id: true } });
  await audit({
    action: "admin.school.create",
    academyId: input.academyId,
    schoolId: school.id,
    targetType: "school",
    targetId: school.id,
    meta: CLI,
  });
  return ok(school);
}

/** The password when one was given, else a one-time set-password link (the person chooses it). */
type Credential = { link: string | null };

async function credentialFor(userId: string, password: string | undefined): Promise<Credential> {
  if (password !== undefined) return { link: null };
  return { link: await createResetLink(userId, ADMIN_LINK_TTL_MS) };
}

export async function createManager(input: {
  academyId: string;
  email: string;
  name: string;
  nameKana: string;
  password?: string;
}): Promise<ActionResult<{ id: string } & Credential>> {
  const academy = await db().academy.findUnique({ where: { id: input.academyId }, select: { id: true } });
  if (!academy) return fail("NOT_FOUND");
  try {
    const user = await db().user.create({
      data: {
        role: "manager",
        groupType: "academy",
        academyId: input.academyId,
        email: input.email,
        name: input.name,
        nameKana: input.nameKana || null,
        passwordHash: input.password === undefined ? null : await hashPassword(input.password),
      },
      select: { id: true },
    });
    await audit({
      action: "admin.manager.create",
      academyId: input.academyId,
      targetType: "user",
      targetId: user.id,
      meta: CLI,
    });
    return ok({ id: user.id, ...(await credentialFor(user.id, input.password)) });
  } catch (error) {
    if (isUniqueViolation(error)) return fail("CONFLICT");
    throw error;
  }
}

/** A teacher's or manager's new password (which ends their sessions), or a link to choose one. Students' are their teacher's to reset. */
export async function resetStaffPassword(input: {
  email: string;
  password?: string;
}): Promise<ActionResult<Credential>> {
  const user = await db().user.findUnique({
    where: { email: input.email },
    select: { id: true, role: true, schoolId: true, academyId: true },
  });
  if (!user) return fail("NOT_FOUND");
  if (user.role === "student") return fail("FORBIDDEN");
  if (input.password !== undefined) {
    const passwordHash = await hashPassword(input.password);
    await db().$transaction([
      db().user.update({
        where: { id: user.id },
        data: { passwordHash, sessionVersion: { increment: 1 } },
        select: { id: true },
      }),
      // reset links sent earlier would otherwise still change it
      db().passwordResetToken.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: new Date() } }),
    ]);
  }
  await audit({
    action: "admin.password.reset",
    schoolId: user.schoolId,
    academyId: user.academyId,
    targetType: "user",
    targetId: user.id,
    meta: CLI,
  });
  return ok(await credentialFor(user.id, input.password));
}

/** Clears the sign-in and reset-mail throttles of an account (a person locked out after too many tries). */
export async function unlockAccount(email: string): Promise<ActionResult<{ cleared: number }>> {
  const user = await db().user.findUnique({ where: { email }, select: { id: true, schoolId: true, academyId: true } });
  if (!user) return fail("NOT_FOUND");
  const { count } = await db().signinThrottle.deleteMany({
    where: { key: { in: [throttleKey("account", email), throttleKey("account", `reset:${email}`)] } },
  });
  await audit({
    action: "admin.account.unlock",
    schoolId: user.schoolId,
    academyId: user.academyId,
    targetType: "user",
    targetId: user.id,
    meta: CLI,
  });
  return ok({ cleared: count });
}

/**
 * Removes a teacher's or manager's second factors (authenticator app, recovery codes and passkeys: platform/auth/second-factor.ts)
 * when they have lost their phone and codes, and ends their sessions (one waiting for a code included). Their next
 * sign-in asks for none, or makes them set up a new app when their academy requires one.
 */
export async function resetSecondFactors(email: string): Promise<ActionResult<{ removed: boolean }>> {
  const user = await db().user.findUnique({
    where: { email },
    select: { id: true, schoolId: true, academyId: true },
  });
  if (!user) return fail("NOT_FOUND");
  const removed = await deleteSecondFactors(user.id);
  await endSessions([user.id]);
  await audit({
    action: "admin.factors.reset",
    schoolId: user.schoolId,
    academyId: user.academyId,
    targetType: "user",
    targetId: user.id,
    meta: { ...CLI, removed },
  });
  return ok({ removed });
}

/** A backup written or a database restored (tools/backup/), in the audit log of the database concerned. */
export async function auditMaintenance(
  action: "admin.backup" | "admin.restore" | "admin.recount-lrs-sent",
  meta: Record<string, string | number>,
): Promise<void> {
  await audit({ action, targetType: "database", meta: { ...CLI, ...meta } });
}
