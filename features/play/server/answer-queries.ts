import "server-only";
import { z } from "zod";
import type { ActivityMode } from "@/features/activities/shared/schema";
import { db } from "@/platform/db";
import { classKeyOf, sessionOpenTo } from "@/features/play/shared/klass";
import {
  feedbackAllowed,
  feedbackFor,
  type SceneFeedback,
  sceneHasKey,
  withoutKey,
} from "@/features/scenes/shared/key";
import { sceneSchema } from "@/features/scenes/shared/schema";
import { revealOwnAnswers } from "./answer-commands";
import { scenesInOrder } from "../shared/answer-order";

export interface RespondentActivity {
  id: string;
  title: string;
  mode: ActivityMode;
  /** Answerable scenes (an information scene asks nothing). */
  scenes: number;
  /** Of those, how many the respondent has answered. */
  answered: number;
  /** A live session is running for it now. */
  live: boolean;
}

/**
 * The activities a respondent (student, or teacher for teacher-actor ones) has
 * in their school: active ones, with progress over the answerable scenes and
 * whether a live session is running.
 */
export async function listRespondentActivities(who: {
  id: string;
  role: "student" | "teacher";
  schoolId: string;
}): Promise<RespondentActivity[]> {
  const rows = await db().activity.findMany({
    where: { schoolId: who.schoolId, status: "active", actorType: who.role },
    orderBy: [{ updatedAt: "desc" }],
    select: {
      id: true,
      title: true,
      mode: true,
      _count: { select: { scenes: { where: { type: { not: "info" } } } } },
      guideSessions: { where: { endedAt: null }, select: { id: true, grade: true, className: true }, take: 100 },
    },
  });
  // a session run for another class is not theirs to join; several classes may run it at once (docs/adr/0060-live-sessions-for-one-class.md, docs/adr/0061-several-classes-at-once.md)
  const own =
    who.role === "student"
      ? await db().studentDetail.findUnique({ where: { userId: who.id }, select: { grade: true, className: true } })
      : null;
  const studentClass = classKeyOf(own?.grade, own?.className);
  const answered = await db().response.groupBy({
    by: ["activityId"],
    where: { userId: who.id, activityId: { in: rows.map((r) => r.id) }, scene: { type: { not: "info" } } },
    _count: { _all: true },
  });
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    mode: r.mode,
    scenes: r._count.scenes,
    answered: answered.find((a) => a.activityId === r.id)?._count._all ?? 0,
    live:
      r.mode === "guide" &&
      r.guideSessions.some(
        (g) => who.role !== "student" || sessionOpenTo(classKeyOf(g.grade, g.className), studentClass),
      ),
  }));
}

interface OwnResponse<A> {
  sceneId: string;
  answer: A;
  clientRevision: number;
  sceneVersion: number;
  attempts: { answer: A; clientRevision: number }[];
}

/** The respondent's answers given to an earlier version of their scene (edited since). */
function answersToOlderVersions<A>(
  responses: OwnResponse<A>[],
  scenes: { id: string; type: string; version: number }[],
): { sceneId: string; version: number; type: string }[] {
  return responses.flatMap((r) => {
    const scene = scenes.find((s) => s.id === r.sceneId);
    return scene && scene.version !== r.sceneVersion
      ? [{ sceneId: r.sceneId, version: r.sceneVersion, type: scene.type }]
      : [];
  });
}

/**
 * What the player starts from: an answer to an earlier version of its scene is not put under the
 * new question (it may name options that are gone); its revision is kept, so the next answer is
 * stored over it (docs/adr/0059-scene-versions.md). With retries, the latest attempt.
 */
function answersToPlay<A>(responses: OwnResponse<A>[], scenes: { id: string; version: number }[]) {
  return Object.fromEntries(
    responses.map((r) => {
      const scene = scenes.find((s) => s.id === r.sceneId);
      const older = scene && scene.version !== r.sceneVersion;
      // an attempt answers the stored answer's version, like the answer itself
      const latest = r.attempts[0] && r.attempts[0].clientRevision > r.clientRevision ? r.attempts[0] : null;
      return [
        r.sceneId,
        { answer: older ? null : (latest?.answer ?? r.answer), revision: latest?.clientRevision ?? r.clientRevision },
      ];
    }),
  );
}

/**
 * One activity for its respondent: the scenes in the order of their
 * counterbalance group (without their answer key) and their own stored answers (with revisions). null
 * when it is not theirs to answer (another school, archived, other actor).
 */
export async function loadForRespondent(
  who: { id: string; role: "student" | "teacher"; schoolId: string },
  activityId: string,
  actorType: "student" | "teacher" = who.role,
) {
  if (!z.uuid().safeParse(activityId).success) return null;
  const activity = await db().activity.findFirst({
    where: { id: activityId, schoolId: who.schoolId, status: "active", actorType },
    select: {
      id: true,
      title: true,
      mode: true,
      actorType: true,
      feedback: true,
      selfOpenScenes: true,
      allowRetries: true,
      scenes: { select: { id: true, type: true, content: true, position: true, version: true } },
      sceneOrders: { select: { group: true, sceneIds: true } },
    },
  });
  if (!activity) return null;
  // a respondent's copy never holds the answer key (feedback comes from the server once allowed)
  const scenes = activity.scenes.map(withoutKey);
  const [detail, responses] = await Promise.all([
    who.role === "student"
      ? db().studentDetail.findUnique({ where: { userId: who.id }, select: { counterbalanceGroup: true } })
      : null,
    db().response.findMany({
      where: { activityId, userId: who.id },
      select: {
        sceneId: true,
        answer: true,
        clientRevision: true,
        sceneVersion: true,
        revealedAt: true,
        attempts: { orderBy: { clientRevision: "desc" }, take: 1, select: { answer: true, clientRevision: true } },
      },
    }),
  ]);
  const group = detail?.counterbalanceGroup ?? null;
  const older = answersToOlderVersions(responses, scenes);
  const olderRows = older.length
    ? await db().sceneVersion.findMany({
        where: { OR: older.map((o) => ({ sceneId: o.sceneId, version: o.version })) },
        select: { sceneId: true, content: true },
      })
    : [];
  return {
    id: activity.id,
    title: activity.title,
    mode: activity.mode,
    actorType: activity.actorType,
    /** When verdicts may be shown (the verdicts themselves: loadOwnFeedback). */
    feedback: activity.feedback,
    /** Self mode: how many scenes of their order students reach now (null: all; docs/adr/0063-pacing-in-self-mode.md). */
    selfOpenScenes: activity.selfOpenScenes,
    group,
    /** Self mode follows the group's order; a live session follows the teacher (default order). */
    scenes: scenesInOrder(scenes, activity.sceneOrders, group),
    defaultOrder: scenesInOrder(scenes, [], null),
    answers: Object.fromEntries(responses.map((r) => [r.sceneId, { answer: r.answer, revision: r.clientRevision }])),
    /** What the player starts from (answersToPlay). */
    toPlay: answersToPlay(responses, scenes),
    /** Scenes whose verdict or key the respondent has been shown: their answer is final (features/play/server/answer-commands.ts). */
    finalScenes: activity.allowRetries ? [] : responses.filter((r) => r.revealedAt !== null).map((r) => r.sceneId),
    /** Answers given to an earlier version of their scene (edited since): the version they answered (docs/adr/0059-scene-versions.md). */
    olderVersions: Object.fromEntries(older.map((o) => [o.sceneId, o.version])),
    /** The content those answers were given to (without its answer key), for the student's own result page. */
    olderContent: Object.fromEntries(
      olderRows.map((v) => [
        v.sceneId,
        withoutKey({ type: older.find((o) => o.sceneId === v.sceneId)!.type, content: v.content }).content,
      ]),
    ),
  };
}

/**
 * The verdicts a respondent may see now on their own answers (empty when the
 * activity's feedback timing does not allow them yet): the key is read here, on
 * the server, and only the verdict and correct options of answered scenes leave.
 * Showing them makes those answers final (features/play/server/answer-commands.ts `revealOwnAnswers`).
 */
export async function loadOwnFeedback(
  who: { id: string; schoolId: string },
  activityId: string,
  progress: { finished: boolean },
): Promise<Record<string, SceneFeedback>> {
  if (!z.uuid().safeParse(activityId).success) return {};
  const activity = await db().activity.findFirst({
    where: { id: activityId, schoolId: who.schoolId, status: "active" },
    select: { mode: true, feedback: true, scenes: { select: { id: true, type: true, content: true, version: true } } },
  });
  if (
    !activity ||
    !feedbackAllowed(activity.feedback, { complete: activity.mode === "complete", finished: progress.finished })
  )
    return {};
  const scenes = activity.scenes.map((s) => {
    const parsed = sceneSchema.safeParse({ type: s.type, content: s.content });
    return { id: s.id, version: s.version, scene: parsed.success ? parsed.data : null };
  });
  // only answers to the scene's current version are judged by its key (docs/adr/0059-scene-versions.md)
  const shown = await revealOwnAnswers(
    who.id,
    activityId,
    scenes.filter((s) => s.scene && sceneHasKey(s.scene)),
  );
  return feedbackFor(scenes, Object.fromEntries(shown.map((r) => [r.sceneId, r.answer])));
}
