import { PortfolioListPage } from "@/components/results/portfolio-pages";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("portfolio");

export default function TeacherPortfolio({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <PortfolioListPage searchParams={searchParams} />;
}
