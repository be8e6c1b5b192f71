import { z } from "zod";
import { INVALID_CHARACTERS, isStorableText, sceneSchema } from "@/features/scenes/shared/schema";
import { MATCH_REQUIRED } from "@/features/scenes/shared/matching";

/** At most this many scenes in one activity (the scene order's own limit, features/activities/shared/schema.ts). */
export const MAX_SCENES = 200;

const id = z.uuid();
const schoolId = z.uuid().optional();

/** Every string in a value, with its path (to check them all for storable text). */
function* stringsOf(value: unknown, path: (string | number)[] = []): Generator<[string, (string | number)[]]> {
  if (typeof value === "string") yield [value, path];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* stringsOf(v, [...path, i]);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) yield* stringsOf(v, [...path, k]);
}

/** A scene as the editor sends it: the stored content schema, with every text storable in PostgreSQL, and a matching's every pair. */
export const editedSceneSchema = sceneSchema.superRefine((scene, ctx) => {
  for (const [text, path] of stringsOf(scene.content, ["content"])) {
    if (!isStorableText(text)) ctx.addIssue({ code: "custom", path, message: INVALID_CHARACTERS });
  }
  if (scene.type === "matching")
    scene.content.left.forEach((l, i) => {
      if (l.correct === undefined)
        ctx.addIssue({ code: "custom", path: ["content", "left", i, "correct"], message: MATCH_REQUIRED });
    });
});

/** Every edit carries the activity version the editor loaded (optimistic concurrency, docs/architecture.md). */
const edit = { schoolId, activityId: id, version: z.number().int().min(1) };

/**
 * `newVersion`: the teacher confirmed that a scene whose current version has answers gets a new
 * version (those answers stay with the old one); without it such an edit is refused ("answered").
 */
export const saveSceneSchema = z.object({
  ...edit,
  sceneId: id,
  scene: editedSceneSchema,
  newVersion: z.boolean().optional(),
});
/**
 * A scene made another type (a PDF's page turned into a question): its new type and content. Only a scene that
 * has never been answered (one version, no answers) and that no live session shows.
 */
export const retypeSceneSchema = z.object({ ...edit, sceneId: id, scene: editedSceneSchema });
/** A new scene goes after `afterSceneId` (in the default order and every group order), else last. */
export const addSceneSchema = z.object({ ...edit, afterSceneId: id.optional(), scene: editedSceneSchema });
export const sceneRefSchema = z.object({ ...edit, sceneId: id });
/** `retire`: the teacher confirmed deleting a scene that has answers (it is retired, its answers kept). */
export const deleteSceneSchema = sceneRefSchema.extend({ retire: z.boolean().optional() });

/** A blank activity: its title and its one information scene (worded in the teacher's language by the page). */
export const blankActivitySchema = z.object({
  schoolId,
  title: z.string().trim().min(1).max(200).refine(isStorableText, { message: INVALID_CHARACTERS }),
  scene: editedSceneSchema.refine((s) => s.type === "info", { message: "the first scene is an information scene" }),
});

export type BlankActivityInput = z.infer<typeof blankActivitySchema>;
export type SaveSceneInput = z.infer<typeof saveSceneSchema>;
export type RetypeSceneInput = z.infer<typeof retypeSceneSchema>;
export type AddSceneInput = z.infer<typeof addSceneSchema>;
export type SceneRefInput = z.infer<typeof sceneRefSchema>;
export type DeleteSceneInput = z.infer<typeof deleteSceneSchema>;

/** fieldErrors key and messages of a refused scene edit (the editor shows a message per reason). */
export const SCENE_REFUSAL = {
  answered: "answered",
  last: "last",
  live: "live",
  tooMany: "tooMany",
  type: "type",
  image: "image",
} as const;
