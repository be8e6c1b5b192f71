import { HomePage } from "@/components/home/home-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("home");

export default function StudentHomePage() {
  return <HomePage role="student" />;
}
