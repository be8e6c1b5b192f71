import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { countSceneAnswers, getActivityWithScenes } from "@/features/activities/server/queries";
import { listGroups } from "@/features/people/server/queries";
import { requireRole } from "@/platform/auth/session";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { toPlainText } from "@/platform/richtext/plain";
import { authorizeSchool } from "@/platform/auth/scope";
import { RichText } from "@/platform/ui/rich-text";
import { EditorSchoolScope } from "./editor-school";
import { ActivityCurriculumCode } from "./curriculum-code-field";
import { ActorTypeSelect, FeedbackSelect, RetriesSelect } from "./feedback-select";
import { type ListedScene, SceneList } from "./scene-list";
import { SceneOrderEditor } from "./scene-order-editor";

/**
 * /dashboard/teacher/activities/edit/{activityId} (the teacher's school) and
 * /dashboard/manager/activities/edit/{schoolId}/{activityId} (a school of the manager's
 * academy, named in every save): title and scene orders, then each scene's content. Every
 * save carries the activity version rendered here; a save re-renders the page, and the keyed
 * parts start again from the new version.
 */
export async function ActivityEdit({ activityId, schoolId }: { activityId: string; schoolId?: string }) {
  const actor = await requireRole(schoolId ? "manager" : "teacher");
  const scope = await authorizeSchool(actor, schoolId);
  const activity = scope ? await getActivityWithScenes(scope, activityId) : null;
  if (!scope || !activity) notFound();
  const t = await getTranslations("Edit");
  const lang = await getDisplayLanguage();
  const [groups, answered] = await Promise.all([listGroups(scope), countSceneAnswers(scope, activity.id)]);
  const scenes: ListedScene[] = activity.scenes.map((s) => ({
    id: s.id,
    type: s.type,
    content: s.content as ListedScene["content"],
    sceneVersion: s.version,
    answered: answered.get(s.id)?.current ?? 0,
    answers: answered.get(s.id)?.all ?? 0,
    curriculumCode: s.curriculumCode,
    label: toPlainText(String((s.content as { prompt?: unknown }).prompt ?? ""), lang)
      .replace(/\s+/g, " ")
      .slice(0, 120),
  }));
  return (
    <EditorSchoolScope schoolId={schoolId ? scope : undefined}>
      <div className="stack">
        <h1>
          <RichText text={t("title")} />
        </h1>
        <SceneOrderEditor
          key={scenes.map((s) => s.id).join()}
          activityId={activity.id}
          version={activity.version}
          title={activity.title}
          scenes={scenes}
          groups={groups}
          groupOrders={Object.fromEntries(activity.sceneOrders.map((o) => [o.group, o.sceneIds]))}
        />
        <ActorTypeSelect activityId={activity.id} actorType={activity.actorType} />
        <FeedbackSelect activityId={activity.id} feedback={activity.feedback} />
        <RetriesSelect activityId={activity.id} allowRetries={activity.allowRetries} />
        <ActivityCurriculumCode activityId={activity.id} value={activity.curriculumCode} />
        <SceneList activityId={activity.id} version={activity.version} scenes={scenes} />
      </div>
    </EditorSchoolScope>
  );
}
