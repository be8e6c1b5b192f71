import { TeacherReadingsPage } from "@/features/activities/ui/school-readings-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("readings");

export default function TeacherReadingsRoute({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <TeacherReadingsPage searchParams={searchParams} />;
}
