import { StudentsPage } from "@/features/people/ui/students-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("students");

export default function TeacherStudentsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <StudentsPage searchParams={searchParams} />;
}
