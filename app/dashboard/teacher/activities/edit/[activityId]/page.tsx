import { ActivityEdit } from "@/components/activities/activity-edit";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("edit");

export default async function TeacherEditPage({ params }: { params: Promise<{ activityId: string }> }) {
  const { activityId } = await params;
  return <ActivityEdit activityId={activityId} />;
}
