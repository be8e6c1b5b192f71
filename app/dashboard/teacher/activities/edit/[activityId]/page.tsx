import { ActivityEdit } from "@/components/activities/activity-edit";

export default async function TeacherEditPage({ params }: { params: Promise<{ activityId: string }> }) {
  const { activityId } = await params;
  return <ActivityEdit activityId={activityId} />;
}
