import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { getActivityWithScenes } from "@/features/activities/server/queries";
import { requireRole } from "@/platform/auth/session";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { authorizeSchool } from "@/platform/auth/scope";
import { PreviewPlayer } from "@/features/scenes/ui/preview-player";
import { renderScene } from "@/features/scenes/ui/render-scene";
import type { RenderedScene } from "@/features/scenes/ui/types";
import { RichText } from "@/platform/ui/rich-text";

/** Preview (teacher, or manager for a school of the academy): every scene as a student sees it, with the correct options marked; nothing is saved. */
export async function ActivityPreview({
  role,
  activityId,
  schoolId,
}: {
  role: "teacher" | "manager";
  activityId: string;
  schoolId?: string;
}) {
  const actor = await requireRole(role);
  const scope = await authorizeSchool(actor, schoolId);
  const activity = scope ? await getActivityWithScenes(scope, activityId) : null;
  if (!scope || !activity) notFound();
  const t = await getTranslations("Scenes");
  const ta = await getTranslations("Activities");
  const lang = await getDisplayLanguage();
  const scenes = activity.scenes
    .map((s) => renderScene(s, lang, { key: true }))
    .filter((s): s is RenderedScene => s !== null);
  const back = role === "teacher" ? "/dashboard/teacher/activities" : `/dashboard/manager/activities/${scope}`;
  return (
    <div className="stack preview">
      <p className="badge" role="note" data-testid="preview-badge">
        <RichText text={t("previewBadge")} />
      </p>
      <h1>
        <RichText text={activity.title} />
      </h1>
      {scenes.length === 0 ? (
        <p className="empty" data-testid="no-scenes">
          <RichText text={ta("errors.noScenes")} />
        </p>
      ) : (
        <PreviewPlayer scenes={scenes} backHref={back} />
      )}
    </div>
  );
}
