import { HomePage } from "@/components/home/home-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("home");

export default function TeacherHomePage() {
  return <HomePage role="teacher" />;
}
