import { GuidePage } from "@/features/play/ui/guide-page";
import { LiveComments } from "@/features/results/ui/live-comment";

/** The live console of a teacher or manager, with the teacher's comment box beside each answer's star. */
export function GuideScreen(props: Parameters<typeof GuidePage>[0]) {
  return (
    <LiveComments>
      <GuidePage {...props} />
    </LiveComments>
  );
}
