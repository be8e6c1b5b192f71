import { StatsPage } from "@/features/results/ui/stats-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("stats");

type Props = {
  params: Promise<{ schoolId: string; activityId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export default async function ManagerStats({ params, searchParams }: Props) {
  const { schoolId, activityId } = await params;
  return <StatsPage role="manager" activityId={activityId} schoolId={schoolId} searchParams={searchParams} />;
}
