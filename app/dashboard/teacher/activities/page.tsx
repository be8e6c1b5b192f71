import { ActivityManagement } from "@/features/activities/ui/activity-management";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("activities");

export default function TeacherActivitiesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <ActivityManagement role="teacher" searchParams={searchParams} />;
}
