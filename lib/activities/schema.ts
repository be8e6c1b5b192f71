import { z } from "zod";

import { ACTIVITY_MODES } from "./modes";

export { ACTIVITY_MODES, type ActivityMode } from "./modes";

const id = z.uuid();
/** Managers name the school; teachers act on their own (schoolId optional, checked when given). */
const schoolId = z.uuid().optional();

export const copyTemplateSchema = z.object({
  schoolId,
  templateId: z.string().regex(/^[a-z0-9-]{3,64}$/),
  title: z.string().trim().max(200).optional(),
});

export const changeModeSchema = z.object({ schoolId, activityId: id, mode: z.enum(ACTIVITY_MODES) });
export const activityRefSchema = z.object({ schoolId, activityId: id });

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
