import { ActivityEdit } from "@/features/activities/ui/activity-edit";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("edit");

export default async function TeacherEditPage({ params }: { params: Promise<{ activityId: string }> }) {
  const { activityId } = await params;
  return <ActivityEdit activityId={activityId} />;
}
