"use server";
import { z } from "zod";
import type { ActionResult } from "@/lib/errors";
import { defineSchoolAction, type SchoolCtx } from "@/lib/schools/school-action";
import {
  addStudent,
  balanceStudentGroups,
  issueNewCodes,
  readStudentCode,
  resetStudentPassword,
  revokeCodes,
  setStudentGroups,
  setStudentsDisabled,
} from "./mutations";
import { studentInput, studentRefs } from "./schema";

const oneStudent = z.object({ studentId: z.uuid() });

/** Student management: teachers, on the students of their own school only. */
const studentAction = <S extends z.ZodType, T>(name: string, schema: S, run: (ctx: SchoolCtx, i: z.infer<S>) => Promise<ActionResult<T>>) =>
  defineSchoolAction({ name, schema, roles: ["teacher"], run, revalidate: ["/dashboard/teacher/students"] });

export const addStudentAction = studentAction("students.add", studentInput, (ctx, i) => addStudent(ctx, i));
export const setDisabledAction = studentAction("students.setDisabled", studentRefs.extend({ disabled: z.boolean() }), (ctx, i) =>
  setStudentsDisabled(ctx, i.studentIds, i.disabled),
);
export const resetPasswordAction = studentAction("students.resetPassword", oneStudent, (ctx, i) => resetStudentPassword(ctx, i.studentId));
export const issueCodesAction = studentAction("students.issueCodes", studentRefs, (ctx, i) => issueNewCodes(ctx, i.studentIds));
export const revokeCodesAction = studentAction("students.revokeCodes", studentRefs, (ctx, i) => revokeCodes(ctx, i.studentIds));
export const readCodeAction = studentAction("students.readCode", oneStudent, (ctx, i) => readStudentCode(ctx, i.studentId));

const group = z.string().regex(/^[A-Z]{1,3}$/);
export const setGroupAction = studentAction("students.setGroup", studentRefs.extend({ group: group.nullable() }), (ctx, i) =>
  setStudentGroups(ctx, i.studentIds, i.group),
);
export const balanceGroupsAction = studentAction(
  "students.balanceGroups",
  z.object({ className: z.string().max(20).optional(), groups: z.array(group).min(2).max(6) }),
  (ctx, i) => balanceStudentGroups(ctx, i.className, i.groups),
);

/** The add-student form (works before hydration too). */
export async function addStudentFromForm(_prev: unknown, form: FormData) {
  return addStudentAction(Object.fromEntries(form));
}
