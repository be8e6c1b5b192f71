import { SoloPage } from "@/features/play/ui/solo-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("activity");

export default async function TeacherSoloPage({ params }: { params: Promise<{ activityId: string }> }) {
  return <SoloPage role="teacher" activityId={(await params).activityId} />;
}
