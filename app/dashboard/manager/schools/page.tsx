import { SchoolsPage } from "@/components/schools/schools-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("schools");

export default function ManagerSchoolsPage() {
  return <SchoolsPage />;
}
