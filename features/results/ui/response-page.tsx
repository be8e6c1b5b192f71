import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireRole } from "@/platform/auth/session";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { loadForRespondent, loadOwnFeedback } from "@/features/play/server/answer-queries";
import { markCorrect } from "@/features/scenes/ui/mark-correct";
import { renderScene } from "@/features/scenes/ui/render-scene";
import type { RenderedScene, SceneAnswer } from "@/features/scenes/ui/types";
import { RichText } from "@/platform/ui/rich-text";
import { answerDrawings, drawingLabel } from "@/features/scenes/ui/answer-drawings";
import { AnswerReview } from "../../play/ui/answer-review";
import { MarkNote } from "@/features/results/ui/mark-note";
import { ownMarks } from "@/features/results/server/mark-queries";
import { feedbackAllowed } from "@/features/scenes/shared/key";

/**
 * A student's own answers to one activity, read-only: when the activity is
 * complete, or once they have answered every scene of a solo activity (with "after each
 * answer" feedback, from the first answer on), with their verdicts when the feedback timing allows.
 */
export async function StudentResponsePage({ activityId }: { activityId: string }) {
  const actor = await requireRole("student");
  if (!actor.schoolId) notFound();
  const activity = await loadForRespondent({ id: actor.id, role: "student", schoolId: actor.schoolId }, activityId);
  if (!activity) notFound();
  const t = await getTranslations("Play");
  const tm = await getTranslations("Marks");
  const lang = await getDisplayLanguage();
  // an answer to an earlier version is shown under the question it answered
  const scenes = activity.scenes
    .map((s) => renderScene(s.id in activity.olderContent ? { ...s, content: activity.olderContent[s.id] } : s, lang))
    .filter((s): s is RenderedScene => s !== null);
  const answers = Object.fromEntries(Object.entries(activity.answers).map(([id, a]) => [id, a.answer as SceneAnswer]));
  const finishedSolo =
    activity.mode === "self" && scenes.length > 0 && scenes.every((s) => s.type === "info" || answers[s.id]);
  const answeredAny = scenes.some((s) => s.type !== "info" && answers[s.id]);
  // after each answer: the page opens with the first answer, so its verdict can be seen
  const open = activity.mode === "complete" || finishedSolo || (activity.feedback === "after_answer" && answeredAny);
  const feedback =
    open && activity.feedback !== "never"
      ? await loadOwnFeedback({ id: actor.id, schoolId: actor.schoolId }, activity.id, { finished: finishedSolo })
      : {};
  // teachers' marks follow the feedback timing; their comments show whenever the page is open (docs/adr/0058-teacher-marks-own-table.md)
  const verdicts = feedbackAllowed(activity.feedback, {
    complete: activity.mode === "complete",
    finished: finishedSolo,
  });
  const marks = open ? await ownMarks({ id: actor.id, schoolId: actor.schoolId }, activity.id, { verdicts }) : {};
  return (
    <div className="stack play">
      <h1>
        <RichText text={activity.title} />
      </h1>
      <p className="muted">
        <RichText text={t("yourAnswers")} />
      </p>
      {open && Object.keys(marks).length === 0 ? (
        <p className="empty" data-testid="marks-empty">
          <RichText text={tm("empty")} />
        </p>
      ) : null}
      {open ? (
        <AnswerReview
          scenes={scenes.map((s) => markCorrect(s, feedback[s.id]?.correct))}
          answers={answers}
          feedback={feedback}
          meta={Object.fromEntries(
            Object.entries(activity.olderVersions).map(([id, v]) => [id, t("answeredOlderVersion", { v })]),
          )}
          drawings={answerDrawings(scenes, answers, await drawingLabel())}
          extra={Object.fromEntries(Object.entries(marks).map(([id, m]) => [id, <MarkNote key={id} mark={m} />]))}
        />
      ) : (
        <p className="alert alert-info" role="status" data-testid="response-not-yet">
          <span>
            <RichText text={t("responseNotYet")} />
          </span>
        </p>
      )}
      <p>
        <Link href="/dashboard/student/home" className="button">
          <RichText text={t("backHome")} />
        </Link>
      </p>
    </div>
  );
}
