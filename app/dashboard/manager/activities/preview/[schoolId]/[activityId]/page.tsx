import { ActivityPreview } from "@/features/activities/ui/activity-preview";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("preview");

export default async function ManagerPreviewPage({
  params,
}: {
  params: Promise<{ schoolId: string; activityId: string }>;
}) {
  const { schoolId, activityId } = await params;
  return <ActivityPreview role="manager" schoolId={schoolId} activityId={activityId} />;
}
