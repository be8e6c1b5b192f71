import { StudentsPage } from "@/components/students/students-page";

export default function TeacherStudentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <StudentsPage searchParams={searchParams} />;
}
