import { StatsPage } from "@/features/results/ui/stats-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("stats");

type Props = {
  params: Promise<{ activityId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export default async function TeacherStats({ params, searchParams }: Props) {
  return <StatsPage role="teacher" activityId={(await params).activityId} searchParams={searchParams} />;
}
