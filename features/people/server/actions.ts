"use server";
import { z } from "zod";
import { filterText } from "@/platform/db/query-text";
import { type ActionResult, ok } from "@/platform/errors";
import { signinCodeUrl } from "@/features/people/shared/signin-code-url";
import { defineSchoolAction, type SchoolCtx } from "@/features/people/server/school-action";
import {
  addStudent,
  balanceStudentGroups,
  deleteStudents,
  importStudents,
  issueNewCodes,
  readStudentCode,
  resetStudentPassword,
  revokeCodes,
  setStudentGroups,
  setCodeExpiry,
  setStudentsDisabled,
  updateStudent,
} from "./commands";
import { MAX_CSV_BYTES } from "../shared/csv";
import { endOfDayJst } from "@/platform/time";
import { studentInput, studentRefs } from "../shared/schema";

const oneStudent = z.object({ studentId: z.uuid() });

/** Student management: teachers, on the students of their own school only. */
const studentAction = <S extends z.ZodType, T>(
  name: string,
  schema: S,
  run: (ctx: SchoolCtx, i: z.infer<S>) => Promise<ActionResult<T>>,
) => defineSchoolAction({ name, schema, roles: ["teacher"], run, revalidate: ["/dashboard/teacher/students"] });

export const addStudentAction = studentAction("students.add", studentInput, (ctx, i) => addStudent(ctx, i));
export const setDisabledAction = studentAction(
  "students.setDisabled",
  studentRefs.extend({ disabled: z.boolean() }),
  (ctx, i) => setStudentsDisabled(ctx, i.studentIds, i.disabled),
);
export const resetPasswordAction = studentAction("students.resetPassword", oneStudent, (ctx, i) =>
  resetStudentPassword(ctx, i.studentId),
);
export const issueCodesAction = studentAction("students.issueCodes", studentRefs, (ctx, i) =>
  issueNewCodes(ctx, i.studentIds),
);
export const revokeCodesAction = studentAction("students.revokeCodes", studentRefs, (ctx, i) =>
  revokeCodes(ctx, i.studentIds),
);
/** The URL a student's QR code carries, built on the server from the configured public address. */
export const readCodeAction = studentAction("students.readCode", oneStudent, async (ctx, i) => {
  const read = await readStudentCode(ctx, i.studentId);
  return read.ok ? ok({ url: signinCodeUrl(read.data.code) }) : read;
});

const group = z.string().regex(/^[A-Z]{1,3}$/);
export const setGroupAction = studentAction(
  "students.setGroup",
  studentRefs.extend({ group: group.nullable() }),
  (ctx, i) => setStudentGroups(ctx, i.studentIds, i.group),
);
export const balanceGroupsAction = studentAction(
  "students.balanceGroups",
  z.object({
    klass: filterText(20).optional(),
    studentIds: studentRefs.shape.studentIds.optional(),
    groups: z.array(group).min(2).max(6),
  }),
  (ctx, i) => balanceStudentGroups(ctx, { klass: i.klass, ids: i.studentIds }, i.groups),
);

export const updateStudentAction = studentAction(
  "students.update",
  studentInput.extend({ studentId: z.uuid() }),
  (ctx, i) => updateStudent(ctx, i.studentId, i),
);
export const deleteStudentsAction = studentAction("students.delete", studentRefs, (ctx, i) =>
  deleteStudents(ctx, i.studentIds),
);
/** Expiry as a calendar date (YYYY-MM-DD): codes work through that day, Japan time. */
export const setCodeExpiryAction = studentAction(
  "students.codeExpiry",
  studentRefs.extend({ expiresOn: z.iso.date().nullable() }),
  (ctx, i) => setCodeExpiry(ctx, i.studentIds, i.expiresOn ? endOfDayJst(i.expiresOn) : null),
);

const csvFile = z.object({
  file: z.instanceof(File).refine((f) => f.size <= MAX_CSV_BYTES, "tooLarge"),
  commit: z.enum(["0", "1"]).transform((v) => v === "1"),
});
/** CSV import: preview (commit "0") or all-or-nothing write (commit "1"); the file comes as form data. */
export const importStudentsAction = studentAction("students.import", csvFile, async (ctx, i) =>
  importStudents(ctx, new Uint8Array(await i.file.arrayBuffer()), i.commit),
);
export async function importStudentsFromForm(form: FormData) {
  return importStudentsAction({ file: form.get("file"), commit: form.get("commit") });
}
