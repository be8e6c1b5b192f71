import { notFound } from "next/navigation";
import { requireRole } from "@/platform/auth/session";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { studentClassKey } from "@/features/play/server/access";
import { liveStateForStudent } from "@/features/play/server/state-queries";
import { loadForRespondent } from "@/features/play/server/answer-queries";
import type { StoredAnswer } from "@/features/play/ui/use-answer-saver";
import { renderScene } from "@/features/scenes/ui/render-scene";
import type { RenderedScene } from "@/features/scenes/ui/types";
import { RichText } from "@/platform/ui/rich-text";
import { LiveSession } from "./live-session";

/** /dashboard/student/activities/session/{activityId}: the student's side of the live session. */
export async function StudentSessionPage({ activityId }: { activityId: string }) {
  const actor = await requireRole("student");
  if (!actor.schoolId) notFound();
  const activity = await loadForRespondent({ id: actor.id, role: "student", schoolId: actor.schoolId }, activityId);
  if (!activity) notFound();
  const state = await liveStateForStudent(activity.id, await studentClassKey(actor.id), actor.id);
  if (!state) notFound();
  const lang = await getDisplayLanguage();
  const scenes = activity.defaultOrder
    .map((s) => renderScene(s, lang, { seed: actor.id }))
    .filter((s): s is RenderedScene => s !== null);
  return (
    <div className="stack play">
      <h1>
        <RichText text={activity.title} />
      </h1>
      <LiveSession
        userId={actor.id}
        activityId={activity.id}
        scenes={scenes}
        initialState={state}
        initial={activity.toPlay as Record<string, StoredAnswer>}
      />
    </div>
  );
}
