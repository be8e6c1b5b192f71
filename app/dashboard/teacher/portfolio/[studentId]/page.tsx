import { PortfolioDetailPage } from "@/components/results/portfolio-pages";

export default async function TeacherPortfolioDetail({ params }: { params: Promise<{ studentId: string }> }) {
  return <PortfolioDetailPage studentId={(await params).studentId} />;
}
