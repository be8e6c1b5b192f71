import { z } from "zod";
import { type SceneType, sceneSchema } from "@/features/scenes/shared/schema";
import { curriculumCodeSchema } from "./curriculum-code";
import type { FeedbackTiming } from "./modes";

/** A scene's key within a content file (template or exported activity). */
export const sceneKeySchema = z.string().regex(/^[a-z0-9-]{1,64}$/);

/** The scenes of a content file in their order, each with a key unique in the file (and its 学習指導要領コード, if set). */
export const contentScenesSchema = z
  .array(z.intersection(z.object({ id: sceneKeySchema, curriculumCode: curriculumCodeSchema.optional() }), sceneSchema))
  .min(1)
  .max(100)
  .refine((s) => new Set(s.map((x) => x.id)).size === s.length, "scene ids must be unique");

/**
 * What a template and an exported activity file share (docs/product-design.md
 * "Activities"): title, actor type and scenes in the stored content format.
 */
export const activityContentShape = {
  title: z.string().trim().min(1).max(200),
  actorType: z.enum(["student", "teacher"]),
  scenes: contentScenesSchema,
};

/** A template content file (prisma/content/templates/*.json). */
export const templateFileSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{3,64}$/),
  description: z.string().trim().min(1).max(2000),
  ...activityContentShape,
});
export type TemplateFile = z.infer<typeof templateFileSchema>;

/** A new activity's content: a template's, or an imported file's (file-format.ts). */
export interface ActivityContent {
  title: string;
  actorType: "student" | "teacher";
  templateId?: string | null;
  /** In order; `key` names a scene in `groupOrders`, `sourceSceneId` is kept (a template scene's id). */
  scenes: {
    key: string;
    sourceSceneId?: string | null;
    type: SceneType;
    content: unknown;
    curriculumCode?: string | null;
  }[];
  /** Counterbalance groups' own orders, as scene keys. */
  groupOrders?: Record<string, string[]>;
  /** When students see their verdicts (an activity file carries it; a template starts at "never"). */
  feedback?: FeedbackTiming;
  /** The 学習指導要領コード of the whole activity (an activity file carries it when set). */
  curriculumCode?: string | null;
}
