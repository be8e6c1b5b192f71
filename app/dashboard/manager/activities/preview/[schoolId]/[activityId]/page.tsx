import { ActivityPreview } from "@/components/activities/activity-preview";

export default async function ManagerPreviewPage({ params }: { params: Promise<{ schoolId: string; activityId: string }> }) {
  const { schoolId, activityId } = await params;
  return <ActivityPreview role="manager" schoolId={schoolId} activityId={activityId} />;
}
