import { GuidePage } from "@/features/play/ui/guide-page";
import { LiveConsoleParts } from "@/features/results/ui/live-console-parts";
import { MembersLink } from "@/features/lti/ui/members-link";

/** The live console of a teacher or manager, with results' parts in it: the comment box, the cross-table. */
export function GuideScreen(props: Parameters<typeof GuidePage>[0]) {
  return (
    <LiveConsoleParts>
      <GuidePage {...props} />
      {props.role === "teacher" ? <MembersLink activityId={props.activityId} /> : null}
    </LiveConsoleParts>
  );
}
