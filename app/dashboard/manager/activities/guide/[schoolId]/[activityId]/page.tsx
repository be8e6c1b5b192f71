import { GuidePage } from "@/components/play/guide-page";

export default async function ManagerGuide({ params }: { params: Promise<{ schoolId: string; activityId: string }> }) {
  const { schoolId, activityId } = await params;
  return <GuidePage role="manager" activityId={activityId} schoolId={schoolId} />;
}
