import { HomePage } from "@/components/home/home-page";

export default function TeacherHomePage() {
  return <HomePage role="teacher" />;
}
