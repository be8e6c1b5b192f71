"use server";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { defineAction } from "@/lib/action";
import type { Role } from "@/lib/auth/roles";
import { type ActionResult, fail } from "@/lib/errors";
import { type AuthorizedSchoolId, authorizeSchool } from "@/lib/schools/scope";
import { changeMode, copyTemplate, deleteActivity, saveSceneOrder, setArchived } from "./mutations";
import { activityRefSchema, changeModeSchema, copyTemplateSchema, saveOrderSchema } from "./schema";

/** An activity action: role check, then the school scope check (teacher: own school; manager: own academy's). */
function schoolAction<S extends z.ZodType<{ schoolId?: string }>, T>(
  name: string,
  schema: S,
  roles: readonly Role[],
  run: (ctx: { schoolId: AuthorizedSchoolId; actorId: string }, input: z.infer<S>) => Promise<ActionResult<T>>,
) {
  return defineAction({
    name,
    schema,
    roles,
    async run(input, actor) {
      const schoolId = await authorizeSchool(actor, input.schoolId);
      if (!schoolId) return fail("FORBIDDEN");
      const result = await run({ schoolId, actorId: actor.id }, input);
      revalidatePath("/dashboard/teacher", "layout");
      revalidatePath("/dashboard/manager", "layout");
      return result;
    },
  });
}

const STAFF = ["teacher", "manager"] as const;

export const copyTemplateAction = schoolAction("activities.copyTemplate", copyTemplateSchema, STAFF, (ctx, i) =>
  copyTemplate(ctx, { templateId: i.templateId, title: i.title }),
);
export const changeModeAction = schoolAction("activities.changeMode", changeModeSchema, STAFF, (ctx, i) =>
  changeMode(ctx, i.activityId, i.mode),
);
export const archiveAction = schoolAction("activities.archive", activityRefSchema, STAFF, (ctx, i) =>
  setArchived(ctx, i.activityId, true),
);
export const restoreAction = schoolAction("activities.restore", activityRefSchema, STAFF, (ctx, i) =>
  setArchived(ctx, i.activityId, false),
);
export const deleteAction = schoolAction("activities.delete", activityRefSchema, STAFF, (ctx, i) =>
  deleteActivity(ctx, i.activityId),
);
/** Scene order: teachers only (managers have no edit screen). */
export const saveOrderAction = schoolAction("activities.saveOrder", saveOrderSchema, ["teacher"], (ctx, i) =>
  saveSceneOrder(ctx, i),
);

/** The library form (works before hydration too): FormData in, the action's result out. */
export async function copyTemplateFromForm(_prev: ActionResult<{ id: string }> | null, form: FormData) {
  return copyTemplateAction({
    templateId: form.get("templateId"),
    title: form.get("title") ?? "",
    ...(form.get("schoolId") ? { schoolId: form.get("schoolId") } : {}),
  });
}
