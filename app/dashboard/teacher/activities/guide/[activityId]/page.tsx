import { GuideScreen } from "@/screens/guide/guide-screen";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("guide");

export default async function TeacherGuide({
  params,
  searchParams,
}: {
  params: Promise<{ activityId: string }>;
  searchParams: Promise<{ session?: string | string[] }>;
}) {
  return <GuideScreen role="teacher" activityId={(await params).activityId} session={(await searchParams).session} />;
}
