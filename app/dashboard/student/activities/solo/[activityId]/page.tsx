import { SoloPage } from "@/features/play/ui/solo-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("activity");

export default async function StudentSoloPage({ params }: { params: Promise<{ activityId: string }> }) {
  return <SoloPage role="student" activityId={(await params).activityId} />;
}
