import { GuidePage } from "@/features/play/ui/guide-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("guide");

export default async function TeacherGuide({
  params,
  searchParams,
}: {
  params: Promise<{ activityId: string }>;
  searchParams: Promise<{ session?: string | string[] }>;
}) {
  return <GuidePage role="teacher" activityId={(await params).activityId} session={(await searchParams).session} />;
}
