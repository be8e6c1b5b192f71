import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { z } from "zod";
import { getActivityWithScenes } from "@/features/activities/server/queries";
import { requireRole } from "@/platform/auth/session";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { homeroomOf, schoolClasses } from "@/features/play/server/grid-queries";
import { liveStateForStaff } from "@/features/play/server/state-queries";
import { authorizeSchool } from "@/platform/auth/scope";
import { renderScene } from "@/features/scenes/ui/render-scene";
import { correctIdsOf, sceneHasKey } from "@/features/scenes/shared/key";
import { sceneSchema } from "@/features/scenes/shared/schema";
import type { RenderedScene } from "@/features/scenes/ui/types";
import { RichText } from "@/platform/ui/rich-text";
import { GuideConsole } from "./guide-console";

/** The guide screen (teacher, or manager for a school of the academy); out of scope → no access. */
export async function GuidePage({
  role,
  activityId,
  schoolId,
  session,
}: {
  role: "teacher" | "manager";
  activityId: string;
  schoolId?: string;
  session?: string | string[];
}) {
  const actor = await requireRole(role);
  const scope = await authorizeSchool(actor, schoolId);
  const activity = scope ? await getActivityWithScenes(scope, activityId) : null;
  if (!scope || !activity || activity.status !== "active") notFound();
  const t = await getTranslations("Play");
  const ta = await getTranslations("Activities");
  const lang = await getDisplayLanguage();
  const scenes = activity.scenes.map((s) => renderScene(s, lang)).filter((s): s is RenderedScene => s !== null);
  // the key of each scene that has one: its 「正解を見せる」 and the results marked once shown
  const keys = Object.fromEntries(
    activity.scenes.flatMap((s) => {
      const parsed = sceneSchema.safeParse({ type: s.type, content: s.content });
      return parsed.success && sceneHasKey(parsed.data) ? [[s.id, correctIdsOf(parsed.data)] as const] : [];
    }),
  );
  // the session chosen (several classes may run the activity at once): anything but an id is none
  const sessionId = typeof session === "string" && z.uuid().safeParse(session).success ? session : null;
  const [state, classes, homeroom] = await Promise.all([
    liveStateForStaff(activity.id, scope, sessionId),
    schoolClasses(scope),
    role === "teacher" ? homeroomOf(scope, actor.id) : null,
  ]);
  // the picker starts at the teacher's own class (担任), when it has students
  const homeroomAt = homeroom
    ? classes.findIndex((c) => c.grade === homeroom.grade && c.className === homeroom.className)
    : -1;
  if (!state) notFound();
  return (
    <div className="stack play">
      <h1>
        <RichText text={activity.title} />
      </h1>
      {activity.actorType !== "student" ? (
        <p className="alert alert-info" role="status" data-testid="guide-teacher-activity">
          <span>
            <RichText text={t("guideTeacherActivity")} />
          </span>
        </p>
      ) : scenes.length === 0 ? (
        <p className="empty" data-testid="no-scenes">
          <RichText text={ta("errors.noScenes")} />
        </p>
      ) : (
        <GuideConsole
          key={sessionId ?? ""}
          sessionId={sessionId}
          activityId={activity.id}
          schoolId={role === "manager" ? scope : undefined}
          scenes={scenes}
          keys={keys}
          initialState={state}
          classes={classes}
          initialClass={homeroomAt >= 0 ? String(homeroomAt) : ""}
          pacing={activity.selfOpenScenes}
        />
      )}
    </div>
  );
}
