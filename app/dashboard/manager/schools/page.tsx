import { SchoolsPage } from "@/components/schools/schools-page";

export default function ManagerSchoolsPage() {
  return <SchoolsPage />;
}
