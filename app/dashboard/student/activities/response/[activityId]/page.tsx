import { StudentResponsePage } from "@/components/play/response-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("result");

export default async function StudentResponse({ params }: { params: Promise<{ activityId: string }> }) {
  return <StudentResponsePage activityId={(await params).activityId} />;
}
