import { SchoolPeople } from "@/features/people/ui/school-people";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("schoolPeople");

export default async function ManagerSchoolPeoplePage({ params }: { params: Promise<{ schoolId: string }> }) {
  const { schoolId } = await params;
  return <SchoolPeople schoolId={schoolId} />;
}
