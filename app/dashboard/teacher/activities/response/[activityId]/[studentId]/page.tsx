import { StaffResponsePage } from "@/features/results/ui/staff-response-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("response");

export default async function TeacherResponse({
  params,
}: {
  params: Promise<{ activityId: string; studentId: string }>;
}) {
  const { activityId, studentId } = await params;
  return <StaffResponsePage role="teacher" activityId={activityId} studentId={studentId} />;
}
