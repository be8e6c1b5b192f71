import { PortfolioListPage } from "@/features/results/ui/portfolio-pages";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("portfolio");

export default function TeacherPortfolio({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <PortfolioListPage searchParams={searchParams} />;
}
