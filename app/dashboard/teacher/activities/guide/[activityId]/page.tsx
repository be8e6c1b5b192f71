import { GuidePage } from "@/components/play/guide-page";

export default async function TeacherGuide({ params }: { params: Promise<{ activityId: string }> }) {
  return <GuidePage role="teacher" activityId={(await params).activityId} />;
}
