"use server";
import type { z } from "zod";
import { ROLES, type Role } from "@/platform/auth/roles";
import { type ActionResult, fail } from "@/platform/errors";
import { defineSchoolAction, type SchoolCtx } from "@/features/people/server/school-action";
import { importFileImages, withPlacedImages } from "@/features/activities/server/image-transfer";
import { withRation } from "@/platform/security/ration";
import { parseActivityFile } from "../shared/file-format";
import {
  changeMode,
  copyTemplate,
  deleteActivity,
  duplicateActivity,
  importActivity,
  saveSceneOrder,
  setActorType,
  setArchived,
  setCurriculumCode,
  setFeedback,
  setRetries,
} from "./commands";
import { canEditActivity } from "../shared/policy";
import {
  addScene,
  createBlankActivity,
  deleteScene,
  duplicateScene,
  retypeScene,
  saveSceneContent,
  setSceneCurriculumCode,
} from "./scene-commands";
import {
  addSceneSchema,
  blankActivitySchema,
  deleteSceneSchema,
  retypeSceneSchema,
  saveSceneSchema,
  sceneRefSchema,
} from "../shared/scene-schema";
import {
  activityRefSchema,
  changeModeSchema,
  copyTemplateSchema,
  importFileSchema,
  saveOrderSchema,
  setActorTypeSchema,
  setCurriculumCodeSchema,
  setFeedbackSchema,
  setRetriesSchema,
  setSceneCurriculumCodeSchema,
} from "../shared/schema";

const STAFF = ["teacher", "manager"] as const;

const activityAction = <S extends z.ZodType, T>(
  name: string,
  schema: S,
  roles: readonly Role[],
  run: (ctx: SchoolCtx, i: z.infer<S>) => Promise<ActionResult<T>>,
) => defineSchoolAction({ name, schema, roles, run, revalidate: ["/dashboard/teacher", "/dashboard/manager"] });

export const copyTemplateAction = activityAction("activities.copyTemplate", copyTemplateSchema, STAFF, (ctx, i) =>
  copyTemplate(ctx, { templateId: i.templateId, title: i.title }),
);
export const duplicateActivityAction = activityAction("activities.duplicate", activityRefSchema, STAFF, (ctx, i) =>
  duplicateActivity(ctx, i.activityId),
);
export const changeModeAction = activityAction("activities.changeMode", changeModeSchema, STAFF, (ctx, i) =>
  changeMode(ctx, i.activityId, i.mode),
);
export const archiveAction = activityAction("activities.archive", activityRefSchema, STAFF, (ctx, i) =>
  setArchived(ctx, i.activityId, true),
);
export const restoreAction = activityAction("activities.restore", activityRefSchema, STAFF, (ctx, i) =>
  setArchived(ctx, i.activityId, false),
);
export const deleteAction = activityAction("activities.delete", activityRefSchema, STAFF, (ctx, i) =>
  deleteActivity(ctx, i.activityId),
);
/**
 * The editor (features/activities/README.md "Activity editor"): teachers for their school, managers for
 * a school of their academy, named in the input (the scope check of every school action).
 */
const EDITORS = ROLES.filter(canEditActivity);
export const saveOrderAction = activityAction("activities.saveOrder", saveOrderSchema, EDITORS, (ctx, i) =>
  saveSceneOrder(ctx, i),
);

export const saveSceneAction = activityAction("activities.saveScene", saveSceneSchema, EDITORS, saveSceneContent);
export const retypeSceneAction = activityAction("activities.retypeScene", retypeSceneSchema, EDITORS, retypeScene);
export const addSceneAction = activityAction("activities.addScene", addSceneSchema, EDITORS, addScene);
export const duplicateSceneAction = activityAction(
  "activities.duplicateScene",
  sceneRefSchema,
  EDITORS,
  duplicateScene,
);
export const deleteSceneAction = activityAction("activities.deleteScene", deleteSceneSchema, EDITORS, deleteScene);
export const createBlankActivityAction = activityAction(
  "activities.createBlank",
  blankActivitySchema,
  EDITORS,
  createBlankActivity,
);
/** When students see correct/incorrect: set in the editor. */
export const setFeedbackAction = activityAction("activities.setFeedback", setFeedbackSchema, EDITORS, (ctx, i) =>
  setFeedback(ctx, i.activityId, i.feedback),
);
/** Whether students may answer again after seeing the key: set in the editor. */
export const setRetriesAction = activityAction("activities.setRetries", setRetriesSchema, EDITORS, (ctx, i) =>
  setRetries(ctx, i.activityId, i.allowRetries),
);
/** The activity's and a scene's 学習指導要領コード (the scene's wins in the learning records): set in the editor. */
export const setCurriculumCodeAction = activityAction(
  "activities.setCurriculumCode",
  setCurriculumCodeSchema,
  EDITORS,
  (ctx, i) => setCurriculumCode(ctx, i.activityId, i.curriculumCode),
);
export const setSceneCurriculumCodeAction = activityAction(
  "activities.setSceneCurriculumCode",
  setSceneCurriculumCodeSchema,
  EDITORS,
  setSceneCurriculumCode,
);
export const setActorTypeAction = activityAction("activities.setActorType", setActorTypeSchema, EDITORS, (ctx, i) =>
  setActorType(ctx, i.activityId, i.actorType),
);

/** The library form (works before hydration too): FormData in, the action's result out. */
export async function copyTemplateFromForm(_prev: ActionResult<{ id: string }> | null, form: FormData) {
  return copyTemplateAction({
    templateId: form.get("templateId"),
    title: form.get("title") ?? "",
    ...(form.get("schoolId") ? { schoolId: form.get("schoolId") } : {}),
  });
}

/**
 * Import an exported activity file into the school (docs/product-design.md
 * "Sharing activities"): a refused file is VALIDATION with the problem's code
 * under `file` (and what was found under `found`, the scene under `scene`).
 */
export const importActivityAction = activityAction("activities.import", importFileSchema, STAFF, async (ctx, i) => {
  // one import per person at a time, a few per process (platform/security/ration.ts)
  const done = await withRation("import", ctx.actorId, () => importFile(ctx, i.file));
  return done.ok ? done.value : fail("RATE_LIMITED", { file: ["busy"] });
});

async function importFile(ctx: SchoolCtx, file: File): Promise<ActionResult<{ id: string; title: string }>> {
  const parsed = parseActivityFile(new Uint8Array(await file.arrayBuffer()));
  if (!parsed.ok) {
    const { code, ...rest } = parsed.problem;
    return fail("VALIDATION", {
      file: [code],
      ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, [String(v)]])),
    });
  }
  // the file's images are stored again (checked and re-encoded) as the school's own
  const images = await importFileImages(ctx.schoolId, ctx.actorId, parsed.file);
  if (!images.ok) {
    if (images.problem === "quota" || images.problem === "busy")
      return fail(images.problem === "busy" ? "RATE_LIMITED" : "VALIDATION", {
        file: [images.problem === "quota" ? "imageQuota" : "busy"],
      });
    return fail("VALIDATION", { file: ["invalid"], field: ["images"] });
  }
  return importActivity(ctx, { ...parsed.file, scenes: withPlacedImages(parsed.file.scenes, images.placed) });
}
/** The import form: FormData in, the action's result out (features/activities/ui/import-activity.tsx). */
export async function importActivityFromForm(
  _prev: ActionResult<{ id: string; title: string }> | null,
  form: FormData,
) {
  return importActivityAction({
    file: form.get("file"),
    ...(form.get("schoolId") ? { schoolId: form.get("schoolId") } : {}),
  });
}
