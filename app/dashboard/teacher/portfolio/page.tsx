import { PortfolioListPage } from "@/components/results/portfolio-pages";

export default function TeacherPortfolio({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <PortfolioListPage searchParams={searchParams} />;
}
