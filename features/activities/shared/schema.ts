import { z } from "zod";
import { searchText } from "@/platform/db/query-text";

import { ACTIVITY_FILE_MAX_BYTES } from "./file-limits";
import { curriculumCodeInput } from "./curriculum-code";
import { ACTIVITY_MODES, FEEDBACK_TIMINGS } from "./modes";

export { ACTIVITY_MODES, type ActivityMode } from "./modes";

const id = z.uuid();
/** Managers name the school; teachers act on their own (schoolId optional, checked when given). */
const schoolId = z.uuid().optional();

export const copyTemplateSchema = z.object({
  schoolId,
  templateId: z.string().regex(/^[a-z0-9-]{3,64}$/),
  title: z.string().trim().max(200).optional(),
});

/** An activity file to import (features/activities/shared/file-format.ts reads it; a larger one is refused unread). */
export const importFileSchema = z.object({
  schoolId,
  file: z.instanceof(File).refine((f) => f.size <= ACTIVITY_FILE_MAX_BYTES, "tooLarge"),
});

export const changeModeSchema = z.object({ schoolId, activityId: id, mode: z.enum(ACTIVITY_MODES) });
export const activityRefSchema = z.object({ schoolId, activityId: id });
export const setFeedbackSchema = z.object({ schoolId, activityId: id, feedback: z.enum(FEEDBACK_TIMINGS) });
export const setRetriesSchema = z.object({ schoolId, activityId: id, allowRetries: z.boolean() });
/** The 学習指導要領コード as typed (curriculum-code.ts): 16 digits, or empty to clear it. */
export const setCurriculumCodeSchema = z.object({ schoolId, activityId: id, curriculumCode: curriculumCodeInput });
export const setSceneCurriculumCodeSchema = setCurriculumCodeSchema.extend({ sceneId: id });
export const setActorTypeSchema = z.object({ schoolId, activityId: id, actorType: z.enum(["student", "teacher"]) });

export const saveOrderSchema = z.object({
  /** Teachers edit their own school's activities; a school id, when given, must be it. */
  schoolId,
  activityId: id,
  /** The activity version the editor loaded (optimistic concurrency). */
  version: z.number().int().min(1),
  title: z.string().trim().max(200),
  order: z.array(id).min(1).max(200),
  /** Counterbalance groups' own orders; null = same as the default order. */
  groupOrders: z.record(z.string().regex(/^[A-Z]{1,3}$/), z.array(id).min(1).max(200).nullable()),
});

export type CopyTemplateInput = z.infer<typeof copyTemplateSchema>;
export type SaveOrderInput = z.infer<typeof saveOrderSchema>;

/** The activity list's filters from its URL (GET form): title search, one mode, the archived tab; anything else means "all". */
export const activityListFilterSchema = z.object({
  q: z.preprocess((v) => (Array.isArray(v) ? v[0] : v) ?? "", searchText(200)),
  mode: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.enum(ACTIVITY_MODES).optional().catch(undefined)),
  tab: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.literal("archived").optional().catch(undefined)),
  /** The academic year (年度) shown; none: every year. */
  year: z.preprocess(
    (v) => (Array.isArray(v) ? v[0] : v),
    z.coerce.number().int().min(2000).max(2100).optional().catch(undefined),
  ),
});
export type ActivityListFilter = z.infer<typeof activityListFilterSchema>;
