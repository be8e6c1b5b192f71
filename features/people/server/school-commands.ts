import "server-only";
import { audit } from "@/platform/audit/log";
import { hashPassword } from "@/platform/auth/password";
import { db, isUniqueViolation } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import { newInitialPassword } from "@/features/people/server/commands";

/** A manager acting on their own academy (the id comes from the database actor, never from input). */
export interface AcademyCtx {
  academyId: string;
  actorId: string;
}

export interface SchoolInput {
  name: string;
  nameKana: string;
}

const ownSchool = (ctx: AcademyCtx, schoolId: string) =>
  db().school.findFirst({ where: { id: schoolId, academyId: ctx.academyId }, select: { id: true } });
const ownTeacher = (ctx: AcademyCtx, teacherId: string) =>
  db().user.findFirst({
    where: { id: teacherId, role: "teacher", school: { academyId: ctx.academyId } },
    select: { id: true, schoolId: true },
  });

export async function createSchool(ctx: AcademyCtx, input: SchoolInput): Promise<ActionResult<{ id: string }>> {
  const school = await db().school.create({
    data: { academyId: ctx.academyId, name: input.name, nameKana: input.nameKana },
    select: { id: true },
  });
  await audit({
    action: "school.create",
    actorId: ctx.actorId,
    schoolId: school.id,
    targetType: "school",
    targetId: school.id,
  });
  return ok(school);
}

export async function renameSchool(ctx: AcademyCtx, schoolId: string, input: SchoolInput): Promise<ActionResult<null>> {
  if (!(await ownSchool(ctx, schoolId))) return fail("NOT_FOUND");
  await db().school.update({
    where: { id: schoolId },
    data: { name: input.name, nameKana: input.nameKana },
    select: { id: true },
  });
  await audit({ action: "school.rename", actorId: ctx.actorId, schoolId, targetType: "school", targetId: schoolId });
  return ok(null);
}

/** A teacher in one of the academy's schools, with an initial password returned once (stored only hashed). */
export async function addTeacher(
  ctx: AcademyCtx,
  input: { schoolId: string; name: string; nameKana: string; email: string },
): Promise<ActionResult<{ id: string; password: string }>> {
  if (!(await ownSchool(ctx, input.schoolId))) return fail("NOT_FOUND");
  const password = newInitialPassword();
  try {
    const user = await db().user.create({
      data: {
        role: "teacher",
        groupType: "school",
        schoolId: input.schoolId,
        email: input.email,
        name: input.name,
        nameKana: input.nameKana || null,
        passwordHash: await hashPassword(password),
      },
      select: { id: true },
    });
    await audit({
      action: "teacher.add",
      actorId: ctx.actorId,
      schoolId: input.schoolId,
      targetType: "user",
      targetId: user.id,
    });
    return ok({ id: user.id, password });
  } catch (error) {
    if (isUniqueViolation(error)) return fail("CONFLICT", { email: ["emailInUse"] });
    throw error;
  }
}

export async function setTeacherDisabled(
  ctx: AcademyCtx,
  teacherId: string,
  disabled: boolean,
): Promise<ActionResult<null>> {
  const teacher = await ownTeacher(ctx, teacherId);
  if (!teacher) return fail("NOT_FOUND");
  // disabling ends the teacher's sessions, so enabling again does not bring old cookies back
  await db().user.update({
    where: { id: teacher.id },
    data: disabled ? { disabled, sessionVersion: { increment: 1 } } : { disabled },
    select: { id: true },
  });
  await audit({
    action: disabled ? "teacher.disable" : "teacher.enable",
    actorId: ctx.actorId,
    schoolId: teacher.schoolId,
    targetType: "user",
    targetId: teacher.id,
  });
  return ok(null);
}

/** Moves a teacher between two schools of the academy. */
export async function moveTeacher(ctx: AcademyCtx, teacherId: string, schoolId: string): Promise<ActionResult<null>> {
  const [teacher, school] = await Promise.all([ownTeacher(ctx, teacherId), ownSchool(ctx, schoolId)]);
  if (!teacher || !school) return fail("NOT_FOUND");
  if (teacher.schoolId === school.id) return ok(null);
  await db().user.update({ where: { id: teacher.id }, data: { schoolId: school.id }, select: { id: true } });
  await audit({
    action: "teacher.move",
    actorId: ctx.actorId,
    schoolId: school.id,
    targetType: "user",
    targetId: teacher.id,
    meta: { from: teacher.schoolId },
  });
  return ok(null);
}

/**
 * Deletes an empty school of the academy. One transaction: the school row is locked
 * first (FOR UPDATE), so a student or teacher being added concurrently either committed
 * before (and is counted: refused, nothing lost) or waits and then fails on the foreign
 * key; an activity likewise. Refused with CONFLICT while anyone (disabled too) or any
 * activity (archived too) belongs to it.
 */
export async function deleteSchool(ctx: AcademyCtx, schoolId: string): Promise<ActionResult<null>> {
  return db().$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string; name: string }[]>`
      SELECT id, name FROM schools WHERE id = ${schoolId}::uuid AND academy_id = ${ctx.academyId}::uuid FOR UPDATE`;
    if (locked.length === 0) return fail("NOT_FOUND");
    const [people, activities] = await Promise.all([
      tx.user.count({ where: { schoolId } }),
      tx.activity.count({ where: { schoolId } }),
    ]);
    if (people + activities > 0) return fail("CONFLICT", { school: ["notEmpty"] });
    await tx.school.delete({ where: { id: schoolId }, select: { id: true } });
    // the school's id and name stay in the log after its row is gone
    await audit(
      {
        action: "school.delete",
        actorId: ctx.actorId,
        academyId: ctx.academyId,
        schoolId,
        targetType: "school",
        targetId: schoolId,
        meta: { name: locked[0]!.name },
      },
      tx,
    );
    return ok(null);
  });
}
