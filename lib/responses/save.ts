import "server-only";
import { db } from "@/lib/db";
import type { ErrorCode } from "@/lib/errors";
import { countsChanged } from "@/lib/live/bus";
import { answerSchemaFor, REQUIRED_INPUT, sceneSchema } from "@/lib/scenes/schema";
import { scenesInOrder } from "./order";
import type { SaveAnswerInput, SaveRefusal } from "./schema";

export interface Respondent {
  id: string;
  role: "student" | "teacher" | "manager";
  schoolId: string | null;
}

export type SaveResult =
  | { ok: true; revision: number; savedAt: string; stale: boolean }
  | { ok: false; status: 400 | 403 | 404 | 409; code: ErrorCode; reason?: SaveRefusal };

const refuse = (status: 400 | 403 | 404 | 409, code: ErrorCode, reason?: SaveRefusal): SaveResult => ({ ok: false, status, code, ...(reason ? { reason } : {}) });

/**
 * Saves one answer (DESIGN.md "Answers"): the respondent must belong to the
 * activity's school and be its actor type; a self answer needs the activity
 * in self mode, a guide answer the running session on that very scene, not
 * locked. The answer is checked against the scene's schema. One row per
 * respondent and scene: a newer client revision replaces it, an older one
 * changes nothing ("stale"), and a retry with the same idempotency key gets
 * the same answer back.
 */
export async function saveAnswer(who: Respondent, input: SaveAnswerInput): Promise<SaveResult> {
  if (who.role === "manager" || !who.schoolId) return refuse(403, "FORBIDDEN");
  if (input.mode === "guide" && who.role !== "student") return refuse(403, "FORBIDDEN");
  const activity = await db().activity.findFirst({
    where: { id: input.activityId, schoolId: who.schoolId, status: "active", actorType: who.role },
    select: {
      id: true, mode: true,
      scenes: { select: { id: true, type: true, content: true, position: true } },
      sceneOrders: { select: { group: true, sceneIds: true } },
      guideSessions: { where: { endedAt: null }, select: { id: true, currentSceneId: true, lockedSceneIds: true }, take: 1 },
    },
  });
  if (!activity) return refuse(404, "NOT_FOUND", "activityNotFound");
  const stored = activity.scenes.find((s) => s.id === input.sceneId);
  if (!stored) return refuse(404, "NOT_FOUND", "activityNotFound");

  let sessionId: string | null = null;
  if (input.mode === "self") {
    if (activity.mode !== "self") return refuse(409, "CONFLICT", "notSelfMode");
  } else {
    const session = activity.guideSessions[0];
    if (activity.mode !== "guide" || !session) return refuse(409, "CONFLICT", "sessionNotRunning");
    if (session.currentSceneId !== input.sceneId) return refuse(409, "CONFLICT", "notCurrentScene");
    if (session.lockedSceneIds.includes(input.sceneId)) return refuse(409, "CONFLICT", "locked");
    sessionId = session.id;
  }

  const scene = sceneSchema.safeParse({ type: stored.type, content: stored.content });
  if (!scene.success) return refuse(404, "NOT_FOUND", "activityNotFound");
  const answer = answerSchemaFor(scene.data).safeParse(input.answer);
  if (!answer.success) {
    const required = answer.error.issues.some((i) => i.message === REQUIRED_INPUT);
    return refuse(400, "VALIDATION", required ? "requiredInput" : "invalidAnswer");
  }

  const detail = who.role === "student" ? await db().studentDetail.findUnique({ where: { userId: who.id }, select: { counterbalanceGroup: true } }) : null;
  const group = detail?.counterbalanceGroup ?? null;
  const order = input.mode === "self" ? scenesInOrder(activity.scenes, activity.sceneOrders, group) : scenesInOrder(activity.scenes, [], null);
  const position = order.findIndex((s) => s.id === input.sceneId);

  const written = await db().$queryRaw<{ client_revision: number; updated_at: Date }[]>`
    insert into responses (activity_id, scene_id, user_id, answer, scene_position, counterbalance_group, mode, session_id, client_revision, idempotency_key)
    values (${activity.id}::uuid, ${input.sceneId}::uuid, ${who.id}::uuid, ${JSON.stringify(answer.data)}::jsonb, ${position}, ${group},
            ${input.mode}::"ResponseMode", ${sessionId}::uuid, ${input.clientRevision}, ${input.idempotencyKey})
    on conflict (user_id, scene_id) do update set
      answer = excluded.answer, scene_position = excluded.scene_position, counterbalance_group = excluded.counterbalance_group,
      mode = excluded.mode, session_id = excluded.session_id, client_revision = excluded.client_revision,
      idempotency_key = excluded.idempotency_key, updated_at = now()
    where responses.client_revision < excluded.client_revision
    returning client_revision, updated_at`;
  if (written[0]) {
    if (sessionId) countsChanged(activity.id);
    return { ok: true, revision: written[0].client_revision, savedAt: written[0].updated_at.toISOString(), stale: false };
  }
  // not written: the same save again (a retry), or an older revision than the stored one
  const current = await db().response.findUniqueOrThrow({
    where: { userId_sceneId: { userId: who.id, sceneId: input.sceneId } },
    select: { clientRevision: true, idempotencyKey: true, updatedAt: true },
  });
  return { ok: true, revision: current.clientRevision, savedAt: current.updatedAt.toISOString(), stale: current.idempotencyKey !== input.idempotencyKey };
}
