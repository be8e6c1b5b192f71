import { ActivityEdit } from "@/features/activities/ui/activity-edit";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("edit");

export default async function ManagerEditPage({
  params,
}: {
  params: Promise<{ schoolId: string; activityId: string }>;
}) {
  const { schoolId, activityId } = await params;
  return <ActivityEdit activityId={activityId} schoolId={schoolId} />;
}
