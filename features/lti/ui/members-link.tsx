import Link from "next/link";
import { z } from "zod";
import { getTranslations } from "next-intl/server";
import { getActor } from "@/platform/auth/session";
import { RichText } from "@/platform/ui/rich-text";
import { membershipLinkOf } from "@/features/lti/server/members-queries";

/** On the console of a teacher who launched this activity from a portal naming its members: the comparison's link. */
export async function MembersLink({ activityId }: { activityId: string }) {
  const actor = await getActor();
  if (!actor || actor === "disabled" || actor.role !== "teacher" || !z.uuid().safeParse(activityId).success)
    return null;
  if (!(await membershipLinkOf(actor.id, activityId))) return null;
  const t = await getTranslations("LtiMembers");
  return (
    <p className="no-print">
      <Link href={`/dashboard/teacher/activities/members/${activityId}`} data-testid="members-link">
        <RichText text={t("link")} />
      </Link>
    </p>
  );
}
