import { z } from "zod";
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from "@/features/scenes/shared/image-limits";
import { isStorableText, SCENE_TYPES } from "@/features/scenes/shared/schema";
import {
  type ActivityContent,
  activityContentShape,
  sceneKeySchema,
} from "@/features/activities/shared/template-content-schema";
import { curriculumCodeSchema } from "./curriculum-code";
import { FEEDBACK_TIMINGS } from "./modes";
import {
  ACTIVITY_FILE_FORMAT,
  ACTIVITY_FILE_MAX_BYTES,
  ACTIVITY_FILE_VERSION,
  type ActivityFileProblem,
  MAX_FILE_IMAGES,
} from "./file-limits";

/**
 * The images a file carries, by the id its scenes place them with: type and base64 bytes.
 * Bounded by the file's own size, and each decoded, checked and re-encoded again by sharp on
 * import (features/activities/server/image-transfer.ts), never trusted as sent.
 */
export const fileImagesSchema = z
  .record(z.uuid(), z.object({ type: z.enum(IMAGE_TYPES), data: z.base64().max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4) }))
  .refine((images) => Object.keys(images).length <= MAX_FILE_IMAGES, "too many images");

/**
 * An exported activity (docs/product-design.md "Sharing activities"): a
 * template's content (the same zod shapes as prisma/content/templates) wrapped
 * with a format name and version, plus the counterbalance groups' own orders
 * as lists of scene keys. No ids of users, schools or the activity.
 */
export const activityFileSchema = z
  .object({
    format: z.literal(ACTIVITY_FILE_FORMAT),
    version: z.literal(ACTIVITY_FILE_VERSION),
    ...activityContentShape,
    groupOrders: z.record(z.string().regex(/^[A-Z]{1,3}$/), z.array(sceneKeySchema).min(1).max(100)).optional(),
    /** When students see their verdicts; absent in files written before it existed (then "never"). */
    feedback: z.enum(FEEDBACK_TIMINGS).optional(),
    /** The 学習指導要領コード of the whole activity; absent when none is set (each scene may carry its own). */
    curriculumCode: curriculumCodeSchema.optional(),
    images: fileImagesSchema.optional(),
  })
  .superRefine((file, ctx) => {
    const keys = file.scenes.map((s) => s.id);
    for (const [group, order] of Object.entries(file.groupOrders ?? {})) {
      const permutation =
        order.length === keys.length && new Set(order).size === order.length && order.every((k) => keys.includes(k));
      if (!permutation)
        ctx.addIssue({ code: "custom", path: ["groupOrders", group], message: "not a permutation of the scenes" });
    }
  });
export type ActivityFile = z.infer<typeof activityFileSchema>;

export type ParsedActivityFile = { ok: true; file: ActivityFile } | { ok: false; problem: ActivityFileProblem };

/** A value found in a file, shown in a message: short, and only characters no markup reads. */
function shown(value: unknown): string {
  if (value === undefined) return "—";
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return Array.from(text.replace(/[^\p{L}\p{N} ._-]/gu, "?"))
    .slice(0, 40)
    .join("");
}

/** Every string in a parsed value (bounded depth: after the schema) can be stored by PostgreSQL. */
function storable(value: unknown): boolean {
  if (typeof value === "string") return isStorableText(value);
  if (Array.isArray(value)) return value.every(storable);
  if (value && typeof value === "object")
    return Object.entries(value).every(([k, v]) => isStorableText(k) && storable(v));
  return true;
}

const refuse = (problem: ActivityFileProblem): ParsedActivityFile => ({ ok: false, problem });

/**
 * Reads an uploaded activity file: size, UTF-8 text, JSON, format and version
 * (each refused by name, with what was found), scene types, then the shared
 * schema. Pure: the import action and the tests use it as it is.
 */
export function parseActivityFile(bytes: Uint8Array): ParsedActivityFile {
  if (bytes.byteLength === 0) return refuse({ code: "empty" });
  if (bytes.byteLength > ACTIVITY_FILE_MAX_BYTES) return refuse({ code: "tooLarge" });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return refuse({ code: "binary" });
  }
  if (text.includes("\u0000")) return refuse({ code: "binary" });
  if (text.trim() === "") return refuse({ code: "empty" });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuse({ code: "notJson" });
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) return refuse({ code: "notJson" });
  const raw = json as Record<string, unknown>;
  if (raw.format === undefined) return refuse({ code: "formatMissing" });
  if (raw.format !== ACTIVITY_FILE_FORMAT) return refuse({ code: "formatUnknown", found: shown(raw.format) });
  if (raw.version !== ACTIVITY_FILE_VERSION) return refuse({ code: "versionUnknown", found: shown(raw.version) });
  if (Array.isArray(raw.scenes)) {
    for (const [i, scene] of raw.scenes.entries()) {
      const type = (scene as { type?: unknown } | null)?.type;
      if (!(SCENE_TYPES as readonly unknown[]).includes(type))
        return refuse({ code: "sceneType", scene: i + 1, found: shown(type) });
    }
  }
  const parsed = activityFileSchema.safeParse(json);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path ?? [];
    if (path[0] === "scenes" && typeof path[1] === "number")
      return refuse({ code: "sceneContent", scene: path[1] + 1 });
    return refuse({ code: "invalid", field: shown(path.map(String).join(".") || "-") });
  }
  if (!storable(parsed.data)) return refuse({ code: "invalidCharacters" });
  return { ok: true, file: parsed.data };
}

/**
 * The file of an activity as stored: scenes keyed s1, s2, … in the default
 * order, group orders by those keys, when students see their verdicts (how
 * it plays) and the 学習指導要領コード of the activity and its scenes. Nothing else of the activity (no ids, no mode, no answers) goes into it.
 */
export function toActivityFile(activity: {
  title: string;
  actorType: "student" | "teacher";
  feedback?: (typeof FEEDBACK_TIMINGS)[number];
  curriculumCode?: string | null;
  scenes: { id: string; type: string; content: unknown; curriculumCode?: string | null }[];
  sceneOrders: { group: string; sceneIds: string[] }[];
}) {
  const keys = new Map(activity.scenes.map((s, i) => [s.id, `s${i + 1}`]));
  const groupOrders = Object.fromEntries(
    activity.sceneOrders.map((o) => [o.group, o.sceneIds.map((id) => keys.get(id) ?? id)]),
  );
  return {
    format: ACTIVITY_FILE_FORMAT,
    version: ACTIVITY_FILE_VERSION,
    title: activity.title,
    actorType: activity.actorType,
    scenes: activity.scenes.map((s) => ({
      id: keys.get(s.id)!,
      ...(s.curriculumCode ? { curriculumCode: s.curriculumCode } : {}),
      type: s.type,
      content: s.content,
    })),
    ...(activity.sceneOrders.length > 0 ? { groupOrders } : {}),
    ...(activity.feedback && activity.feedback !== "never" ? { feedback: activity.feedback } : {}),
    ...(activity.curriculumCode ? { curriculumCode: activity.curriculumCode } : {}),
  };
}

/** A new activity's content from a parsed file (an import, a copy from the academy library). */
export function contentOfFile(file: ActivityFile, title = file.title): ActivityContent {
  return {
    title,
    actorType: file.actorType,
    scenes: file.scenes.map(({ id, type, content, curriculumCode }) => ({ key: id, type, content, curriculumCode })),
    groupOrders: file.groupOrders,
    feedback: file.feedback,
    curriculumCode: file.curriculumCode,
  };
}
