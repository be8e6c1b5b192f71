import { SoloPage } from "@/components/play/solo-page";

export default async function TeacherSoloPage({ params }: { params: Promise<{ activityId: string }> }) {
  return <SoloPage role="teacher" activityId={(await params).activityId} />;
}
