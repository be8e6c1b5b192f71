import { StaffResponsePage } from "@/components/results/staff-response-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("response");

export default async function TeacherResponse({
  params,
}: {
  params: Promise<{ activityId: string; studentId: string }>;
}) {
  const { activityId, studentId } = await params;
  return <StaffResponsePage role="teacher" activityId={activityId} studentId={studentId} />;
}
