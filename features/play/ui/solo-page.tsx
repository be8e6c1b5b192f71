import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { requireRole } from "@/platform/auth/session";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { loadForRespondent } from "@/features/play/server/answer-queries";
import type { StoredAnswer } from "@/features/play/ui/use-answer-saver";
import { renderScene } from "@/features/scenes/ui/render-scene";
import type { RenderedScene } from "@/features/scenes/ui/types";
import { RichText } from "@/platform/ui/rich-text";
import { HomeRefresh } from "./home-refresh";
import { SoloPlayer } from "./solo-player";

/**
 * Solo: a student's activity in self mode at their own pace; or a teacher's
 * run on their own device (their answers for a teacher-actor activity, a
 * try-out that writes nothing for a student one). Out of scope → no access.
 */
export async function SoloPage({ role, activityId }: { role: "student" | "teacher"; activityId: string }) {
  const actor = await requireRole(role);
  const t = await getTranslations("Activities");
  if (!actor.schoolId) notFound();
  const who = { id: actor.id, role, schoolId: actor.schoolId };
  // a teacher runs teacher-actor activities as themselves, or tries out a student one
  const activity =
    (await loadForRespondent(who, activityId)) ??
    (role === "teacher" ? await loadForRespondent(who, activityId, "student") : null);
  if (!activity) notFound();
  const writes = activity.actorType === role;
  const lang = await getDisplayLanguage();
  const all = activity.scenes
    .map((s) => renderScene(s, lang, { seed: actor.id }))
    .filter((s): s is RenderedScene => s !== null);
  // pacing: a student reaches the scenes the teacher has opened (docs/adr/0063-pacing-in-self-mode.md)
  const paced = writes && role === "student" && activity.mode === "self" && activity.selfOpenScenes !== null;
  const scenes = paced ? all.slice(0, activity.selfOpenScenes ?? all.length) : all;
  const problem = writes && activity.mode !== "self" ? "notSelfMode" : scenes.length === 0 ? "noScenes" : null;
  const initial = (writes ? activity.toPlay : {}) as Record<string, StoredAnswer>;
  const firstOpen = scenes.findIndex((s) => !initial[s.id]?.answer);
  const home = role === "student" ? "/dashboard/student/home" : "/dashboard/teacher/home";
  return (
    <div className="stack play">
      <h1>
        <RichText text={activity.title} />
      </h1>
      {problem ? (
        <p className="alert alert-error" role="alert" data-testid="solo-problem" data-problem={problem}>
          <span>
            <RichText text={t(`errors.${problem}`)} />
          </span>
        </p>
      ) : (
        <SoloPlayer
          waitingForMore={scenes.length < all.length}
          finalScenes={writes ? activity.finalScenes : []}
          userId={actor.id}
          activityId={activity.id}
          scenes={scenes}
          initial={initial}
          startAt={firstOpen === -1 ? scenes.length : firstOpen}
          writes={writes}
          doneHref={home}
          responseHref={writes && role === "student" ? `/dashboard/student/activities/response/${activity.id}` : null}
          checkHref={
            writes && role === "student" && activity.feedback === "after_answer"
              ? `/dashboard/student/activities/response/${activity.id}`
              : null
          }
        />
      )}
      {paced ? <HomeRefresh /> : null}
    </div>
  );
}
