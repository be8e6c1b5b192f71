import { ActivityManagement } from "@/features/activities/ui/activity-management";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("schoolActivities");

export default async function ManagerActivitiesPage({
  params,
  searchParams,
}: {
  params: Promise<{ schoolId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { schoolId } = await params;
  return <ActivityManagement role="manager" schoolId={schoolId} searchParams={searchParams} />;
}
