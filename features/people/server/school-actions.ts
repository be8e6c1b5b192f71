"use server";
import { z } from "zod";
import type { ActionResult } from "@/platform/errors";
import { kana, personName } from "@/features/people/shared/schema";
import { entraTenantInput } from "@/features/people/shared/entra";
import { oidcProviderInput } from "@/features/people/shared/oidc-provider";
import { secondFactorPolicyInput } from "@/features/people/shared/second-factor-policy";
import { removeOidcProvider, setEntraTenant, setOidcProvider, setSecondFactorPolicy } from "./academy-commands";
import { defineAcademyAction } from "./school-action";
import {
  type AcademyCtx,
  addTeacher,
  createSchool,
  deleteSchool,
  moveTeacher,
  renameSchool,
  setTeacherDisabled,
} from "./school-commands";

const schoolInput = z.object({ name: personName, nameKana: kana });

/** The manager's schools screen: managers only, on their own academy (taken from the database actor). */
const academyAction = <S extends z.ZodType, T>(
  name: string,
  schema: S,
  run: (ctx: AcademyCtx, i: z.infer<S>) => Promise<ActionResult<T>>,
) => defineAcademyAction({ name, schema, run, revalidate: ["/dashboard/manager"] });

export const createSchoolAction = academyAction("schools.create", schoolInput, (ctx, i) => createSchool(ctx, i));
export const renameSchoolAction = academyAction(
  "schools.rename",
  schoolInput.extend({ schoolId: z.uuid() }),
  (ctx, i) => renameSchool(ctx, i.schoolId, i),
);
export const addTeacherAction = academyAction(
  "schools.addTeacher",
  z.object({
    schoolId: z.uuid(),
    name: personName,
    nameKana: kana,
    email: z
      .email()
      .max(254)
      .transform((v) => v.toLowerCase()),
  }),
  (ctx, i) => addTeacher(ctx, i),
);
export const setTeacherDisabledAction = academyAction(
  "schools.teacherDisabled",
  z.object({ teacherId: z.uuid(), disabled: z.boolean() }),
  (ctx, i) => setTeacherDisabled(ctx, i.teacherId, i.disabled),
);
export const moveTeacherAction = academyAction(
  "schools.moveTeacher",
  z.object({ teacherId: z.uuid(), schoolId: z.uuid() }),
  (ctx, i) => moveTeacher(ctx, i.teacherId, i.schoolId),
);
/** Deletes an empty school of the academy (refused with CONFLICT while it holds people or activities). */
export const deleteSchoolAction = academyAction("schools.delete", z.object({ schoolId: z.uuid() }), (ctx, i) =>
  deleteSchool(ctx, i.schoolId),
);
/** Binds the manager's own academy to a Microsoft Entra ID tenant (empty: unbinds it). */
export const setEntraTenantAction = academyAction(
  "academy.entraTenant",
  z.object({ tenantId: entraTenantInput }),
  (ctx, i) => setEntraTenant(ctx.academyId, i.tenantId, { actorId: ctx.actorId }),
);
/** Sets the manager's own academy's OpenID Connect provider (an empty secret keeps the stored one). */
export const setOidcProviderAction = academyAction("academy.oidcProvider", oidcProviderInput, (ctx, i) =>
  setOidcProvider(ctx.academyId, i, { actorId: ctx.actorId }),
);
/** Removes the manager's own academy's OpenID Connect provider. */
export const removeOidcProviderAction = academyAction("academy.oidcProviderRemove", z.object({}), (ctx) =>
  removeOidcProvider(ctx.academyId, { actorId: ctx.actorId }),
);
/** Whether the academy's teachers and managers must use a second factor, and until when they are only asked. */
export const setSecondFactorPolicyAction = academyAction(
  "academy.secondFactorPolicy",
  secondFactorPolicyInput,
  (ctx, i) => setSecondFactorPolicy(ctx.academyId, i, ctx.actorId),
);
