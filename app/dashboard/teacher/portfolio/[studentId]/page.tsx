import { PortfolioDetailPage } from "@/features/results/ui/portfolio-pages";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("portfolio");

export default async function TeacherPortfolioDetail({ params }: { params: Promise<{ studentId: string }> }) {
  return <PortfolioDetailPage studentId={(await params).studentId} />;
}
