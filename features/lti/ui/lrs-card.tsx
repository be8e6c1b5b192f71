import { requireRole } from "@/platform/auth/session";
import { getAcademyLrs } from "@/features/lti/server/lrs-queries";
import { LrsSettings } from "./lrs-settings";

/** The schools screen's LRS card for the manager's own academy: its settings and its statements' state. */
export async function LrsCard() {
  const actor = await requireRole("manager");
  if (!actor.academyId) return null;
  return <LrsSettings current={await getAcademyLrs(actor.academyId)} />;
}
