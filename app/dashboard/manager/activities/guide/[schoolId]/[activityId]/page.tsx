import { GuideScreen } from "@/screens/guide/guide-screen";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("guide");

export default async function ManagerGuide({
  params,
  searchParams,
}: {
  params: Promise<{ schoolId: string; activityId: string }>;
  searchParams: Promise<{ session?: string | string[] }>;
}) {
  const { schoolId, activityId } = await params;
  return (
    <GuideScreen role="manager" activityId={activityId} schoolId={schoolId} session={(await searchParams).session} />
  );
}
