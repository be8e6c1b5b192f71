import { ActivityPreview } from "@/components/activities/activity-preview";

export default async function TeacherPreviewPage({ params }: { params: Promise<{ activityId: string }> }) {
  const { activityId } = await params;
  return <ActivityPreview role="teacher" activityId={activityId} />;
}
