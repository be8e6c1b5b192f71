import { PortfolioDetailPage } from "@/components/results/portfolio-pages";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("portfolio");

export default async function TeacherPortfolioDetail({ params }: { params: Promise<{ studentId: string }> }) {
  return <PortfolioDetailPage studentId={(await params).studentId} />;
}
