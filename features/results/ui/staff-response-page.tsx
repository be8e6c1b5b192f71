import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireRole } from "@/platform/auth/session";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage, getPlainText } from "@/platform/i18n/server";
import { respondentIds, studentResponses } from "@/features/results/server/portfolio-queries";
import { authorizeSchool } from "@/platform/auth/scope";
import { answerDrawings, drawingLabel } from "@/features/scenes/ui/answer-drawings";
import { AnswerReview } from "@/features/play/ui/answer-review";
import { renderScene } from "@/features/scenes/ui/render-scene";
import type { RenderedScene, SceneAnswer } from "@/features/scenes/ui/types";
import { PersonName } from "@/platform/ui/person-name";
import { RichText } from "@/platform/ui/rich-text";
import { SeatLabel } from "./student-label";
import { MarkForm } from "@/features/results/ui/mark-form";
import type { DisplayLanguage } from "@/platform/i18n/languages";
import { toStaffMark } from "@/features/results/server/mark-queries";
import { isMarkedSceneType } from "@/features/results/shared/mark-verdicts";

/** A mark form under every answer (features/results/ui/mark-form.tsx): verdicts on free text and drawing, comments on any. */
function markForms(data: StudentResponses, scenes: RenderedScene[], lang: DisplayLanguage, schoolId?: string) {
  const types = new Map(scenes.map((s) => [s.id, s.type]));
  return Object.fromEntries(
    data.responses.map((r) => [
      r.sceneId,
      <MarkForm
        key={r.id}
        activityId={data.activity.id}
        schoolId={schoolId}
        responseId={r.id}
        markable={isMarkedSceneType(types.get(r.sceneId) ?? "")}
        initial={toStaffMark(r.mark, r.updatedAt)}
        lang={lang}
      />,
    ]),
  );
}

type StudentResponses = NonNullable<Awaited<ReturnType<typeof studentResponses>>>;

/** The pages of the other students' answers and the activity's stats, for a teacher or a manager. */
function responseLinks(role: "teacher" | "manager", scope: string, activityId: string) {
  const base =
    role === "teacher"
      ? `/dashboard/teacher/activities/response/${activityId}`
      : `/dashboard/manager/activities/response/${scope}/${activityId}`;
  const statsHref =
    role === "teacher"
      ? `/dashboard/teacher/activities/stats/${activityId}`
      : `/dashboard/manager/activities/stats/${scope}/${activityId}`;
  return { base, statsHref };
}

/** The student's name, seat and counterbalance group. */
function StudentLine({ student: s }: { student: StudentResponses["student"] }) {
  return (
    <p className="row" data-testid="response-student">
      {s.name ? <PersonName name={{ base: s.name, reading: s.nameKana }} /> : null}
      {s.student ? (
        <span className="muted">
          <SeatLabel seat={s.student} />
        </span>
      ) : null}
      {s.student?.counterbalanceGroup ? <span className="muted">{`(${s.student.counterbalanceGroup})`}</span> : null}
    </p>
  );
}

/** One student's answers to one activity (teacher, or manager for a school of the academy), with previous/next student. */
export async function StaffResponsePage({
  role,
  activityId,
  studentId,
  schoolId,
}: {
  role: "teacher" | "manager";
  activityId: string;
  studentId: string;
  schoolId?: string;
}) {
  const actor = await requireRole(role);
  const scope = await authorizeSchool(actor, schoolId);
  const data = scope ? await studentResponses(scope, activityId, studentId) : null;
  if (!scope || !data) notFound();
  const t = await getTranslations("Results");
  const ta = await getTranslations("Activities");
  const common = await getTranslations("Common");
  const lang = await getDisplayLanguage();
  const plain = await getPlainText();
  const scenes = data.scenes.map((s) => renderScene(s, lang)).filter((s): s is RenderedScene => s !== null);
  const answers = Object.fromEntries(data.responses.map((r) => [r.sceneId, r.answer as SceneAnswer]));
  const answeredVersion = new Map(data.scenes.map((s) => [s.id, s.answeredVersion]));
  const versionNote = (id: string) => {
    const v = answeredVersion.get(id);
    return v ? `・${plain(t("answeredVersion", { v }))}` : "";
  };
  const meta = Object.fromEntries(
    data.responses.map((r) => [
      r.sceneId,
      `${plain(formatDateTime(r.updatedAt, lang))} (${plain(ta(r.mode === "guide" ? "modeGuide" : "modeSelf"))}${r.late ? `・${plain(ta("lateAnswer"))}` : ""}${versionNote(r.sceneId)})`,
    ]),
  );
  const order = await respondentIds(scope, activityId);
  const at = order.indexOf(studentId);
  const { base, statsHref } = responseLinks(role, scope, activityId);
  return (
    <div className="stack">
      <h1>
        <RichText text={data.activity.title} />
      </h1>
      <p className="muted" data-testid="response-year">
        <RichText text={common("academicYear", { year: data.activity.academicYear })} />
      </p>
      <StudentLine student={data.student} />
      <nav className="row no-print" aria-label={plain(t("otherStudents"))}>
        {at > 0 ? (
          <Link className="button" href={`${base}/${order[at - 1]}`} data-testid="previous-student">
            <RichText text={t("previousStudent")} />
          </Link>
        ) : null}
        <Link className="button" href={statsHref}>
          <RichText text={t("backToStats")} />
        </Link>
        {at >= 0 && at < order.length - 1 ? (
          <Link className="button" href={`${base}/${order[at + 1]}`} data-testid="next-student">
            <RichText text={t("nextStudent")} />
          </Link>
        ) : null}
      </nav>
      {data.responses.length === 0 ? (
        <p className="empty" data-testid="no-answers">
          <RichText text={t("noAnswers")} />
        </p>
      ) : (
        <AnswerReview
          scenes={scenes}
          answers={answers}
          meta={meta}
          drawings={answerDrawings(scenes, answers, await drawingLabel())}
          extra={markForms(data, scenes, lang, schoolId && scope)}
        />
      )}
    </div>
  );
}
