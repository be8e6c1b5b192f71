import { StudentSessionPage } from "@/features/play/ui/session-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("session");

export default async function StudentSession({ params }: { params: Promise<{ activityId: string }> }) {
  return <StudentSessionPage activityId={(await params).activityId} />;
}
