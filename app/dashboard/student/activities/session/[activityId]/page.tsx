import { StudentSessionPage } from "@/components/play/session-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("session");

export default async function StudentSession({ params }: { params: Promise<{ activityId: string }> }) {
  return <StudentSessionPage activityId={(await params).activityId} />;
}
