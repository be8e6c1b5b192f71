import { ActivityPreview } from "@/features/activities/ui/activity-preview";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("preview");

export default async function TeacherPreviewPage({ params }: { params: Promise<{ activityId: string }> }) {
  const { activityId } = await params;
  return <ActivityPreview role="teacher" activityId={activityId} />;
}
