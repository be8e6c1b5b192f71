import { ActivityManagement } from "@/components/activities/activity-management";

export default function TeacherActivitiesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <ActivityManagement role="teacher" searchParams={searchParams} />;
}
