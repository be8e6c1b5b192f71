import "server-only";
import { randomInt, randomUUID } from "node:crypto";
import { audit } from "@/platform/audit/log";
import { hashPassword } from "@/platform/auth/password";
import { db } from "@/platform/db";
import { env } from "@/platform/env";
import { type ActionResult, fail, ok } from "@/platform/errors";
import { Prisma } from "@/platform/db/generated/prisma/client";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { decryptCode, sealNewCode } from "@/platform/auth/signin-code-crypto";
import { rotateSigninCodes } from "@/features/people/server/signin-code-commands";
import { assignBalanced } from "../shared/balance";
import { classFilterOf } from "../shared/class-key";
import { type CsvRow, type CsvRowError, checkCsv, seatKey } from "../shared/csv";
import type { StudentInput } from "../shared/schema";

interface Ctx {
  schoolId: AuthorizedSchoolId;
  actorId: string;
}

/** The partial unique index of migration 20261123100000: one student per full seat in a school. */
const SEAT_INDEX = "student_details_school_seat_key";
/** Which unique rule a failed write broke (null: not a unique violation). */
function conflictOf(error: unknown): "seat" | "email" | null {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return null;
  return JSON.stringify(error.meta ?? {}).includes(SEAT_INDEX) ? "seat" : "email";
}
const SEAT_TAKEN = { number: ["seatTaken"] };

/** Whether another student of the school (not `except`) has this seat; the index has the last word under concurrency. */
async function seatTaken(
  tx: Prisma.TransactionClient,
  schoolId: AuthorizedSchoolId,
  input: StudentInput,
  except?: string,
) {
  const row = await tx.studentDetail.findFirst({
    where: {
      schoolId,
      graduatedYear: null,
      grade: input.grade,
      className: input.className,
      number: input.number,
      ...(except ? { userId: { not: except } } : {}),
    },
    select: { userId: true },
  });
  return row !== null;
}

/** A password a child can type from a printout: 10 characters without look-alikes (0/O, 1/l/I). */
export function newInitialPassword(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  return Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join("");
}

/** Adds a student with an initial password (returned once, stored only hashed) and a sign-in code. */
export async function addStudent(
  ctx: Ctx,
  input: StudentInput,
): Promise<ActionResult<{ id: string; password: string }>> {
  const password = newInitialPassword();
  const passwordHash = await hashPassword(password);
  try {
    return await db().$transaction(async (tx) => {
      if (await seatTaken(tx, ctx.schoolId, input)) return fail("CONFLICT", SEAT_TAKEN);
      const user = await tx.user.create({
        data: {
          role: "student",
          groupType: "school",
          schoolId: ctx.schoolId,
          email: input.email,
          passwordHash,
          name: input.name,
          nameKana: input.nameKana || null,
          nickname: input.nickname || null,
          displayLanguage: input.displayLanguage ?? null,
          student: {
            create: {
              grade: input.grade,
              className: input.className,
              number: input.number,
              counterbalanceGroup: input.group,
            },
          },
        },
        select: { id: true },
      });
      const sealed = sealNewCode(env().SIGNIN_CODE_KEY);
      await tx.signinCode.create({
        data: { userId: user.id, codeHash: sealed.codeHash, codeEncrypted: sealed.codeEncrypted },
        select: { id: true },
      });
      await audit(
        { action: "student.add", actorId: ctx.actorId, schoolId: ctx.schoolId, targetType: "user", targetId: user.id },
        tx,
      );
      return ok({ id: user.id, password });
    });
  } catch (error) {
    const conflict = conflictOf(error);
    if (conflict) return fail("CONFLICT", conflict === "seat" ? SEAT_TAKEN : { email: ["emailInUse"] });
    throw error;
  }
}

/** The ids among `ids` that are students of the school (others are ignored: never touched, never revealed). */
async function ownStudents(schoolId: AuthorizedSchoolId, ids: string[]) {
  const rows = await db().user.findMany({
    where: { id: { in: ids }, schoolId, role: "student" },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

export async function setStudentsDisabled(
  ctx: Ctx,
  ids: string[],
  disabled: boolean,
): Promise<ActionResult<{ count: number }>> {
  const own = await ownStudents(ctx.schoolId, ids);
  if (own.length === 0) return fail("NOT_FOUND");
  // disabling ends the students' sessions, so enabling them again does not bring old cookies back
  await db().user.updateMany({
    where: { id: { in: own } },
    data: disabled ? { disabled, sessionVersion: { increment: 1 } } : { disabled },
  });
  await audit({
    action: disabled ? "student.disable" : "student.enable",
    actorId: ctx.actorId,
    schoolId: ctx.schoolId,
    meta: { ids: own },
  });
  return ok({ count: own.length });
}

/** A new password for one student, returned once. */
export async function resetStudentPassword(ctx: Ctx, id: string): Promise<ActionResult<{ password: string }>> {
  const [own] = await ownStudents(ctx.schoolId, [id]);
  if (!own) return fail("NOT_FOUND");
  const password = newInitialPassword();
  await db().user.update({
    where: { id: own },
    data: { passwordHash: await hashPassword(password), sessionVersion: { increment: 1 } },
    select: { id: true },
  });
  await audit({
    action: "student.passwordReset",
    actorId: ctx.actorId,
    schoolId: ctx.schoolId,
    targetType: "user",
    targetId: own,
  });
  return ok({ password });
}

/** New codes replace the old ones (cards already handed out stop working). */
export async function issueNewCodes(ctx: Ctx, ids: string[]): Promise<ActionResult<{ count: number }>> {
  const own = await ownStudents(ctx.schoolId, ids);
  if (own.length === 0) return fail("NOT_FOUND");
  await db().$transaction(async (tx) => {
    await rotateSigninCodes(tx, own);
    await audit({ action: "signinCode.rotate", actorId: ctx.actorId, schoolId: ctx.schoolId, meta: { ids: own } }, tx);
  });
  return ok({ count: own.length });
}

export async function revokeCodes(ctx: Ctx, ids: string[]): Promise<ActionResult<{ count: number }>> {
  const own = await ownStudents(ctx.schoolId, ids);
  if (own.length === 0) return fail("NOT_FOUND");
  await db().$transaction([
    db().signinCode.updateMany({ where: { userId: { in: own }, revokedAt: null }, data: { revokedAt: new Date() } }),
    db().user.updateMany({ where: { id: { in: own } }, data: { sessionVersion: { increment: 1 } } }), // and the sessions it opened
  ]);
  await audit({ action: "signinCode.revoke", actorId: ctx.actorId, schoolId: ctx.schoolId, meta: { ids: own } });
  return ok({ count: own.length });
}

/** The live code of one student of the school, decrypted for a QR code or a printed card. */
export async function readStudentCode(ctx: Ctx, id: string): Promise<ActionResult<{ code: string }>> {
  const row = await db().signinCode.findFirst({
    where: { userId: id, revokedAt: null, user: { schoolId: ctx.schoolId, role: "student" } },
    select: { codeEncrypted: true },
  });
  if (!row) return fail("NOT_FOUND");
  await audit({
    action: "signinCode.read",
    actorId: ctx.actorId,
    schoolId: ctx.schoolId,
    targetType: "user",
    targetId: id,
  });
  return ok({ code: decryptCode(row.codeEncrypted, env().SIGNIN_CODE_KEY) });
}

/** Sets (or clears) the counterbalance group of the school's students among `ids`. */
export async function setStudentGroups(
  ctx: Ctx,
  ids: string[],
  group: string | null,
): Promise<ActionResult<{ count: number }>> {
  const own = await ownStudents(ctx.schoolId, ids);
  if (own.length === 0) return fail("NOT_FOUND");
  await db().studentDetail.updateMany({ where: { userId: { in: own } }, data: { counterbalanceGroup: group } });
  await audit({ action: "student.group", actorId: ctx.actorId, schoolId: ctx.schoolId, meta: { ids: own, group } });
  return ok({ count: own.length });
}

/** "Assign balanced" over the school's students (the selection, or one class, or all), in one transaction. */
export async function balanceStudentGroups(
  ctx: Ctx,
  scope: { klass?: string; ids?: string[] },
  groups: string[],
): Promise<ActionResult<{ count: number }>> {
  const { klass, ids } = scope;
  const students = await db().studentDetail.findMany({
    where: {
      user: { schoolId: ctx.schoolId, role: "student", disabled: false, ...(ids ? { id: { in: ids } } : {}) },
      ...(klass ? classFilterOf(klass) : {}),
    },
    select: { userId: true, grade: true, className: true, number: true },
  });
  if (students.length === 0) return fail("NOT_FOUND");
  const assignment = assignBalanced(
    students.map((s) => ({ id: s.userId, grade: s.grade, className: s.className, number: s.number })),
    groups,
  );
  await db().$transaction(async (tx) => {
    for (const group of groups) {
      const ids = [...assignment].filter(([, g]) => g === group).map(([id]) => id);
      await tx.studentDetail.updateMany({ where: { userId: { in: ids } }, data: { counterbalanceGroup: group } });
    }
    await audit(
      {
        action: "student.balance",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        meta: { klass: klass ?? null, selected: ids?.length ?? null, groups, count: assignment.size },
      },
      tx,
    );
  });
  return ok({ count: assignment.size });
}

/** Edits one student's details (not the password). */
export async function updateStudent(ctx: Ctx, id: string, input: StudentInput): Promise<ActionResult<null>> {
  const [own] = await ownStudents(ctx.schoolId, [id]);
  if (!own) return fail("NOT_FOUND");
  if (await seatTaken(db(), ctx.schoolId, input, own)) return fail("CONFLICT", SEAT_TAKEN);
  try {
    await db().user.update({
      where: { id: own },
      data: {
        email: input.email,
        name: input.name,
        nameKana: input.nameKana || null,
        nickname: input.nickname || null,
        displayLanguage: input.displayLanguage,
        student: {
          upsert: {
            create: {
              grade: input.grade,
              className: input.className,
              number: input.number,
              counterbalanceGroup: input.group,
            },
            update: {
              grade: input.grade,
              className: input.className,
              number: input.number,
              counterbalanceGroup: input.group,
            },
          },
        },
      },
      select: { id: true },
    });
  } catch (error) {
    const conflict = conflictOf(error);
    if (conflict) return fail("CONFLICT", conflict === "seat" ? SEAT_TAKEN : { email: ["emailInUse"] });
    throw error;
  }
  await audit({
    action: "student.edit",
    actorId: ctx.actorId,
    schoolId: ctx.schoolId,
    targetType: "user",
    targetId: own,
  });
  return ok(null);
}

/** Deletes students of the school with their answers (the dialog says so; disabling keeps them). */
export async function deleteStudents(
  ctx: Ctx,
  ids: string[],
): Promise<ActionResult<{ count: number; responses: number }>> {
  const own = await ownStudents(ctx.schoolId, ids);
  if (own.length === 0) return fail("NOT_FOUND");
  const result = await db().$transaction(async (tx) => {
    const responses = await tx.response.deleteMany({ where: { userId: { in: own } } });
    const users = await tx.user.deleteMany({ where: { id: { in: own }, schoolId: ctx.schoolId, role: "student" } });
    await audit(
      {
        action: "student.delete",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        meta: { ids: own, responses: responses.count },
      },
      tx,
    );
    return { count: users.count, responses: responses.count };
  });
  return ok(result);
}

/** Sets (or clears) the expiry of the live codes of the school's students among `ids`. */
export async function setCodeExpiry(
  ctx: Ctx,
  ids: string[],
  expiresAt: Date | null,
): Promise<ActionResult<{ count: number }>> {
  const own = await ownStudents(ctx.schoolId, ids);
  if (own.length === 0) return fail("NOT_FOUND");
  const updated = await db().signinCode.updateMany({
    where: { userId: { in: own }, revokedAt: null },
    data: { expiresAt },
  });
  await audit({
    action: "signinCode.expiry",
    actorId: ctx.actorId,
    schoolId: ctx.schoolId,
    meta: { ids: own, expiresAt: expiresAt?.toISOString() ?? null },
  });
  return ok({ count: updated.count });
}

/** The school's e-mails and seats already taken, for the import's checks. */
async function takenInSchool(schoolId: AuthorizedSchoolId, emails: string[]) {
  const [users, seats] = await Promise.all([
    emails.length > 0 ? db().user.findMany({ where: { email: { in: emails } }, select: { email: true } }) : [],
    db().studentDetail.findMany({
      where: { user: { schoolId, role: "student" }, graduatedYear: null },
      select: { grade: true, className: true, number: true },
    }),
  ]);
  return {
    emails: new Set(users.map((u) => u.email!)),
    seats: new Set(
      seats.flatMap((s) =>
        s.grade === null || s.className === null || s.number === null ? [] : [seatKey(s.grade, s.className, s.number)],
      ),
    ),
  };
}

export type ImportPreview = {
  rows: { line: number; shown: CsvRow["shown"]; errors: CsvRowError[] }[];
  valid: number;
  invalid: number;
};

/**
 * CSV import. `commit: false` checks the file and writes nothing (the
 * preview); `commit: true` checks it again and, only when every row is
 * valid, writes all students in one transaction (all or nothing). Imported
 * students get a sign-in code (QR card); a password is given later with
 * "reset password".
 */
export async function importStudents(
  ctx: Ctx,
  bytes: Uint8Array,
  commit: boolean,
): Promise<ActionResult<ImportPreview & { imported: number }>> {
  const first = checkCsv(bytes);
  if (!first.ok) return fail("VALIDATION", { file: [first.error] });
  const emails = first.rows.flatMap((r) => (r.input?.email ? [r.input.email] : []));
  const checked = checkCsv(bytes, await takenInSchool(ctx.schoolId, emails));
  if (!checked.ok) return fail("VALIDATION", { file: [checked.error] });
  const rows = checked.rows.map((r) => ({ line: r.line, shown: r.shown, errors: r.errors }));
  const invalid = checked.rows.filter((r) => r.errors.length > 0).length;
  const preview = { rows, valid: rows.length - invalid, invalid };
  if (!commit || invalid > 0) return ok({ ...preview, imported: 0 });

  const key = env().SIGNIN_CODE_KEY;
  const students = checked.rows.map((r) => ({ id: randomUUID(), input: r.input! }));
  try {
    await db().$transaction(
      async (tx) => {
        await tx.user.createMany({
          data: students.map(({ id, input }) => ({
            id,
            role: "student" as const,
            groupType: "school" as const,
            schoolId: ctx.schoolId,
            email: input.email,
            name: input.name,
            nameKana: input.nameKana || null,
            nickname: input.nickname || null,
            displayLanguage: input.displayLanguage ?? null,
          })),
        });
        await tx.studentDetail.createMany({
          data: students.map(({ id, input }) => ({
            userId: id,
            grade: input.grade,
            className: input.className,
            number: input.number,
            counterbalanceGroup: input.group,
          })),
        });
        await tx.signinCode.createMany({
          data: students.map(({ id }) => {
            const sealed = sealNewCode(key);
            return { userId: id, codeHash: sealed.codeHash, codeEncrypted: sealed.codeEncrypted };
          }),
        });
        await audit(
          { action: "student.import", actorId: ctx.actorId, schoolId: ctx.schoolId, meta: { count: students.length } },
          tx,
        );
      },
      { timeout: 60_000 },
    );
  } catch (error) {
    // an e-mail or a seat taken between the check and the write: nothing was written
    const conflict = conflictOf(error);
    if (conflict) return fail("CONFLICT", { file: [conflict === "seat" ? "seatTaken" : "emailInUse"] });
    throw error;
  }
  return ok({ ...preview, imported: students.length });
}
