import { SoloPage } from "@/components/play/solo-page";

export default async function StudentSoloPage({ params }: { params: Promise<{ activityId: string }> }) {
  return <SoloPage role="student" activityId={(await params).activityId} />;
}
