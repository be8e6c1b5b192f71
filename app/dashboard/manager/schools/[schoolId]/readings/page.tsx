import { ManagerReadingsPage } from "@/features/activities/ui/school-readings-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("readings");

export default async function ManagerReadingsRoute({
  params,
  searchParams,
}: {
  params: Promise<{ schoolId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { schoolId } = await params;
  return <ManagerReadingsPage schoolId={schoolId} searchParams={searchParams} />;
}
