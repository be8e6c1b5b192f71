import { requireRole } from "@/platform/auth/session";
import { publicUrl } from "@/platform/env";
import { getAcademyLtiPlatform } from "@/features/lti/server/platform-queries";
import { academyScores } from "@/features/lti/server/score-queries";
import { LtiPlatform } from "./lti-platform";

/** The schools screen's LTI card for the manager's own academy (features/people/ui/schools-page.tsx's `extra`). */
export async function LtiPlatformCard() {
  const actor = await requireRole("manager");
  if (!actor.academyId) return null;
  const current = await getAcademyLtiPlatform(actor.academyId);
  const scores = current ? await academyScores(actor.academyId) : null;
  return <LtiPlatform current={current} scores={scores} origin={publicUrl()} />;
}
