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

interface AnswerContext {
  id: string;
  mode: string;
  scene_type: string | null;
  scene_content: unknown;
  scenes: unknown;
  own_order: string[] | null;
  counterbalance_group: string | null;
  session_id: string | null;
  current_scene_id: string | null;
  locked_scene_ids: string[] | null;
}

const json = (value: unknown) => (typeof value === "string" ? (JSON.parse(value) as unknown) : value);

/**
 * Everything a save checks, in one query (a class saves at once): the
 * activity when it is the respondent's school's, active and for their role;
 * the scene when it belongs to it; every scene's id and position; the
 * respondent's counterbalance group and that group's order; the running
 * session.
 */
function answerContext(who: Respondent, input: SaveAnswerInput) {
  return db().$queryRaw<AnswerContext[]>`
    select a.id::text, a.mode::text, sc.type::text as scene_type, sc.content as scene_content,
      (select coalesce(json_agg(json_build_object('id', x.id, 'position', x.position)), '[]'::json) from activity_scenes x where x.activity_id = a.id) as scenes,
      (select o.scene_ids::text[] from activity_scene_orders o where o.activity_id = a.id and o."group" = d.counterbalance_group) as own_order,
      d.counterbalance_group, gs.id::text as session_id, gs.current_scene_id::text, gs.locked_scene_ids::text[]
    from activities a
    left join activity_scenes sc on sc.id = ${input.sceneId}::uuid and sc.activity_id = a.id
    left join student_details d on d.user_id = ${who.id}::uuid
    left join lateral (select g.id, g.current_scene_id, g.locked_scene_ids from guide_sessions g where g.activity_id = a.id and g.ended_at is null limit 1) gs on true
    where a.id = ${input.activityId}::uuid and a.school_id = ${who.schoolId}::uuid and a.status = 'active' and a.actor_type::text = ${who.role}`;
}

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
  const [activity] = await answerContext(who, input);
  if (!activity || activity.scene_type === null) return refuse(404, "NOT_FOUND", "activityNotFound");

  let sessionId: string | null = null;
  if (input.mode === "self") {
    if (activity.mode !== "self") return refuse(409, "CONFLICT", "notSelfMode");
  } else {
    if (activity.mode !== "guide" || !activity.session_id) return refuse(409, "CONFLICT", "sessionNotRunning");
    if (activity.current_scene_id !== input.sceneId) return refuse(409, "CONFLICT", "notCurrentScene");
    if ((activity.locked_scene_ids ?? []).includes(input.sceneId)) return refuse(409, "CONFLICT", "locked");
    sessionId = activity.session_id;
  }

  const scene = sceneSchema.safeParse({ type: activity.scene_type, content: json(activity.scene_content) });
  if (!scene.success) return refuse(404, "NOT_FOUND", "activityNotFound");
  const answer = answerSchemaFor(scene.data).safeParse(input.answer);
  if (!answer.success) {
    const required = answer.error.issues.some((i) => i.message === REQUIRED_INPUT);
    return refuse(400, "VALIDATION", required ? "requiredInput" : "invalidAnswer");
  }

  const group = activity.counterbalance_group;
  const scenes = json(activity.scenes) as { id: string; position: number }[];
  const orders = activity.own_order && group ? [{ group, sceneIds: activity.own_order }] : [];
  const order = input.mode === "self" ? scenesInOrder(scenes, orders, group) : scenesInOrder(scenes, [], null);
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
