import { StaffResponsePage } from "@/features/results/ui/staff-response-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("response");

export default async function ManagerResponse({
  params,
}: {
  params: Promise<{ schoolId: string; activityId: string; studentId: string }>;
}) {
  const { schoolId, activityId, studentId } = await params;
  return <StaffResponsePage role="manager" activityId={activityId} studentId={studentId} schoolId={schoolId} />;
}
