import { notFound } from "next/navigation";
import { requireRole } from "@/lib/auth/session";
import { getDisplayLanguage } from "@/lib/i18n/server";
import { studentClassKey } from "@/lib/live/access";
import { liveStateForStudent } from "@/lib/live/state";
import { loadForRespondent } from "@/lib/responses/data";
import type { StoredAnswer } from "@/components/answers/use-answer-saver";
import { renderScene } from "@/components/scenes/render-scene";
import type { RenderedScene } from "@/components/scenes/types";
import { RichText } from "@/components/ui/rich-text";
import { LiveSession } from "./live-session";

/** /dashboard/student/activities/session/{activityId}: the student's side of the live session. */
export async function StudentSessionPage({ activityId }: { activityId: string }) {
  const actor = await requireRole("student");
  if (!actor.schoolId) notFound();
  const activity = await loadForRespondent({ id: actor.id, role: "student", schoolId: actor.schoolId }, activityId);
  if (!activity) notFound();
  const state = await liveStateForStudent(activity.id, await studentClassKey(actor.id));
  if (!state) notFound();
  const lang = await getDisplayLanguage();
  const scenes = activity.defaultOrder.map((s) => renderScene(s, lang)).filter((s): s is RenderedScene => s !== null);
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
