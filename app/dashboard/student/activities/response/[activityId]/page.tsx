import { StudentResponsePage } from "@/features/results/ui/response-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("result");

export default async function StudentResponse({ params }: { params: Promise<{ activityId: string }> }) {
  return <StudentResponsePage activityId={(await params).activityId} />;
}
